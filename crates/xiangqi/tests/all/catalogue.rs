//! The table of the classic endgames in `docs/xiangqi.md` is the library's catalogue: its names,
//! materials and positions (quick), and its results and statistics (ignored: it generates 113
//! files, 1.12 billion indices; `cargo test --release -p endgame-xiangqi --test all -- --ignored
//! catalogue::`).

use endgame_xiangqi::catalogue::{self, catalogue};
use endgame_xiangqi::{Rules, Tablebases};

/// The page of the documentation that holds the table (the README's until issue 36).
const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/xiangqi.md");

fn page() -> String {
    std::fs::read_to_string(PAGE).unwrap_or_else(|e| panic!("{PAGE}: {e}"))
}

/// The rows of the documentation's table, in order.
fn table_rows(page: &str) -> Vec<&str> {
    let header = "| Chinese | English | Material | Typical position (Red to move) |";
    let start = page.find(header).expect("docs/xiangqi.md has the table of classic endgames");
    page[start..].lines().skip(2).take_while(|l| l.starts_with("| ")).collect()
}

#[test]
fn the_documented_table_lists_the_catalogue_in_order() {
    let page = page();
    let rows = table_rows(&page);
    assert_eq!(rows.len(), catalogue().len());
    for (row, e) in rows.iter().zip(catalogue()) {
        let start = format!("| {} | {} | `{}` | `{}` | ", e.chinese, e.english, e.material, e.fen);
        assert!(row.starts_with(&start), "docs/xiangqi.md row {row:?}, expected it to start {start:?}");
    }
}

#[test]
#[ignore = "generates 113 files (1.12 billion indices): minutes in release"]
fn the_documented_table_is_what_the_tables_say() {
    let dir = std::env::temp_dir().join(format!("endgame-catalogue-{}", std::process::id()));
    let store = Tablebases::open(&dir, Rules::Standard);
    let materials: Vec<_> = catalogue().iter().map(|e| e.material()).collect();
    store.generate(&materials, &|_| {}).unwrap();
    let table = catalogue::table(&store).unwrap();
    let page = page();
    let rows = table_rows(&page);
    for (row, line) in rows.iter().zip(table.lines().skip(2)) {
        assert_eq!(*row, line);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

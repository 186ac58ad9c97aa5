//! The README's table of the classic endgames is the library's catalogue: its names, materials
//! and positions (quick), and its results and statistics (ignored: it generates 113 files,
//! 1.12 billion indices; `cargo test --release -p endgame-xiangqi --test all -- --ignored catalogue::`).

use endgame_xiangqi::catalogue::{self, catalogue};
use endgame_xiangqi::{Rules, Tablebases};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap()
}

/// The README's rows of the table, in order.
fn readme_rows(readme: &str) -> Vec<&str> {
    let header = "| Chinese | English | Material | Typical position (Red to move) |";
    let start = readme.find(header).expect("the README has the table of classic endgames");
    readme[start..].lines().skip(2).take_while(|l| l.starts_with("| ")).collect()
}

#[test]
fn the_readme_table_lists_the_catalogue_in_order() {
    let readme = readme();
    let rows = readme_rows(&readme);
    assert_eq!(rows.len(), catalogue().len());
    for (row, e) in rows.iter().zip(catalogue()) {
        let start = format!("| {} | {} | `{}` | `{}` | ", e.chinese, e.english, e.material, e.fen);
        assert!(row.starts_with(&start), "README row {row:?}, expected it to start {start:?}");
    }
}

#[test]
#[ignore = "generates 113 files (1.12 billion indices): minutes in release"]
fn the_readme_table_is_what_the_tables_say() {
    let dir = std::env::temp_dir().join(format!("endgame-catalogue-{}", std::process::id()));
    let store = Tablebases::open(&dir, Rules::Standard);
    let materials: Vec<_> = catalogue().iter().map(|e| e.material()).collect();
    store.generate(&materials, &|_| {}).unwrap();
    let table = catalogue::table(&store).unwrap();
    let readme = readme();
    let rows = readme_rows(&readme);
    for (row, line) in rows.iter().zip(table.lines().skip(2)) {
        assert_eq!(*row, line);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

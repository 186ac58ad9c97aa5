//! End-to-end tests in headless Chromium: the server on a free loopback port, the page driven
//! through chromedriver as a player uses it (clicks, keys, the browser's back and forward), and
//! what the page shows (text, colours, counts, positions on the screen) checked against the
//! API's answers, at desktop and phone widths, in English and Chinese.
//!
//! One browser session runs every check in turn (a browser start costs seconds); each check is
//! a function named after what it shows, and its time is printed. Screenshots go to
//! `target/screenshots/`. Without Chromium the test says it was skipped, except in CI
//! (`CI=true`), where it fails.
//!
//! The rooms: [`page`] (the harness: the server and the browser as one page under test),
//! [`webdriver`] (the browser), and the checks by tab: [`xiangqi`] (a position's analysis),
//! [`xiangqi_game`] (a game: history, record, playing), [`generate`] (generation on demand,
//! the masters' endgames, and its timing), [`review`] (a game record reviewed), [`twixt`],
//! [`cheesy`], [`marine`], [`units`] (the page's numbers are the server's), and [`whole_page`]
//! (the icon, Chinese, phone widths).

#[path = "../common/mod.rs"]
mod common;
mod page;
mod webdriver;

mod cheesy;
mod generate;
mod marine;
mod review;
mod twixt;
mod units;
mod whole_page;
mod xiangqi;
mod xiangqi_game;

use std::time::Instant;

use page::{Page, budget, start_server};
use webdriver::{Browser, available};

/// Red wins in 11 plies (KPvK).
const SOLDIER: &str = "4k4/9/9/9/9/2P6/9/9/9/3K5 w";
/// Red to move loses in 8 plies (KvKN).
const HORSE: &str = "3k5/9/9/9/9/3n5/9/9/9/3K5 w";
/// Red wins in 3, 7 or 11 plies (KRvKN).
const CHARIOT: &str = "4k4/9/4n4/9/9/9/9/9/4R4/3K5 w";

/// A check: its name and what it does with the page.
type Check = (&'static str, fn(&Page));

/// The whole explorer in one browser session.
#[test]
fn the_explorer_as_a_player_sees_it() {
    if !available("the_explorer_as_a_player_sees_it") {
        return;
    }
    let started = Instant::now();
    // No tables at the start: the positions of 5 men or more are generated on demand.
    let dir = common::fresh_dir("browser-no-tables");
    let server = start_server(dir.clone(), Some(budget()));
    let page = Page::new(Browser::start(), server);
    let checks: [Check; 25] = [
        ("xiangqi_moves_are_the_apis", xiangqi::xiangqi_moves_are_the_apis),
        ("pieces_and_river_are_drawn_by_the_page", xiangqi::pieces_and_river_are_drawn_by_the_page),
        ("best_move_arrow_and_distance_colours", xiangqi::best_move_arrow_and_distance_colours),
        ("editor_shows_the_servers_messages", xiangqi::editor_shows_the_servers_messages),
        ("examples_menu_is_the_apis", xiangqi::examples_menu_is_the_apis),
        ("errors_clear_the_analysis", xiangqi::errors_clear_the_analysis),
        ("small_fixes", xiangqi::small_fixes),
        ("no_failed_requests_in_the_console", xiangqi::no_failed_requests_in_the_console),
        ("side_to_move_and_swapped_colours", xiangqi::side_to_move_and_swapped_colours),
        ("browser_history_steps_through_positions", xiangqi_game::browser_history_steps_through_positions),
        ("game_record_copy_and_export", xiangqi_game::game_record_copy_and_export),
        ("back_while_playing_takes_back_the_pair", xiangqi_game::back_while_playing_takes_back_the_pair),
        ("playing_against_perfect_play", xiangqi_game::playing_against_perfect_play),
        ("twixt_shows_the_apis_pegs_and_moves", twixt::twixt_shows_the_apis_pegs_and_moves),
        ("cheesy_solves_and_edits", cheesy::cheesy_solves_and_edits),
        ("marine_solves_and_edits", marine::marine_solves_and_edits),
        ("favicon", whole_page::favicon),
        ("generate_on_demand", generate::generate_on_demand),
        ("masters_endgames_say_how_long_first", generate::masters_endgames_say_how_long_first),
        ("units_are_the_servers", units::units_are_the_servers),
        ("review_marks_the_examples_mistakes", review::review_marks_the_examples_mistakes),
        (
            "review_reads_dropped_files_and_refuses_bad_records",
            review::review_reads_dropped_files_and_refuses_bad_records,
        ),
        ("review_in_chinese_and_generation", review::review_in_chinese_and_generation),
        ("chinese_interface", whole_page::chinese_interface),
        ("phone_layout", whole_page::phone_layout),
    ];
    for (name, check) in checks {
        let at = Instant::now();
        check(&page);
        // Straight to the process's standard error: the test harness captures `eprintln!`.
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!("{name}: {:.1} s\n", at.elapsed().as_secs_f64()).as_bytes(),
        );
    }
    // No check left a red line in the browser's console (a failed request, an exception).
    assert_eq!(page.console_errors(), Vec::<String>::new(), "the console's errors");
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("the explorer's browser checks: {:.1} s in all\n", started.elapsed().as_secs_f64())
            .as_bytes(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

//! The page's numbers (`assets/units.js`) are the server's (`endgame_core::units`): sizes,
//! counts, speeds and times written alike, character for character, on edge values (unit
//! boundaries, roundings to 1024, halves) and on thousands of values spread over every
//! magnitude, run in the browser itself.

use endgame_core::units;
use serde_json::{Value, json};

use crate::page::Page;

/// A reproducible spread of values (splitmix64), over every magnitude.
fn spread(n: usize) -> Vec<u64> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            z >> (z % 64)
        })
        .collect()
}

pub(crate) fn units_are_the_servers(page: &Page) {
    page.open("/xiangqi");
    let mut sizes: Vec<u64> = vec![0, 1, 1023, 1024, 1025, 1152, 1536, 10_239, 10_240, 102_399, 102_400];
    for unit in [1u64 << 10, 1 << 20, 1 << 30, 1 << 40] {
        for k in [1, 9, 10, 99, 100, 999, 1000, 1023, 1024] {
            for d in [0i64, -1, 1, -(unit as i64) / 2000, (unit as i64) / 2000] {
                sizes.push((k * unit).saturating_add_signed(d));
            }
        }
    }
    sizes.extend([22_816 << 20, 51_012 << 20, u64::MAX, 1 << 53]);
    sizes.extend(spread(3000));
    // Counts as JavaScript holds them exactly: below 2^53.
    let counts: Vec<u64> = sizes.iter().map(|n| n % (1 << 53)).collect();
    let mut seconds: Vec<f64> = vec![
        -1.0, 0.0, 0.4, 1.49, 1.5, 2.5, 40.2, 119.4, 119.5, 120.0, 150.0, 3540.0, 7199.0, 7200.0, 9000.0,
    ];
    seconds.extend([4.25 * 3600.0, 4.35 * 3600.0, 1e5, 1e7]);
    seconds.extend(spread(1000).iter().map(|&n| (n % 10_000_000) as f64 / 7.0));
    let js = page.script(
        "const [sizes, counts, seconds] = arguments; \
         return import('/assets/units.js').then(u => ({ \
           bytes: sizes.map(n => u.bytes(n)), counts: counts.map(n => u.count(n)), \
           rates: seconds.map(s => u.rate(s)), durations: seconds.map(s => u.duration(s)), \
           zh: seconds.map(s => u.duration(s, ['秒', '分钟', '小时'])) }));",
        json!([sizes, counts, seconds]),
    );
    let rust = json!({
        "bytes": sizes.iter().map(|&n| units::bytes(n)).collect::<Vec<_>>(),
        "counts": counts.iter().map(|&n| units::count(n)).collect::<Vec<_>>(),
        "rates": seconds.iter().map(|&s| units::rate(s)).collect::<Vec<_>>(),
        "durations": seconds.iter().map(|&s| units::duration(s)).collect::<Vec<_>>(),
        "zh": seconds
            .iter()
            .map(|&s| units::duration(s).replace(" min", " 分钟").replace(" s", " 秒").replace(" h", " 小时"))
            .collect::<Vec<_>>(),
    });
    for field in ["bytes", "counts", "rates", "durations", "zh"] {
        let (page_side, server_side) = (&js[field], &rust[field]);
        let differ: Vec<(&Value, &Value)> = page_side
            .as_array()
            .unwrap()
            .iter()
            .zip(server_side.as_array().unwrap())
            .filter(|(a, b)| a != b)
            .take(5)
            .collect();
        assert!(
            differ.is_empty(),
            "{field}: the page writes (left) what the server writes (right): {differ:?}"
        );
        assert_eq!(page_side.as_array().unwrap().len(), server_side.as_array().unwrap().len(), "{field}");
    }
    // The page's estimate, progress and statistics use them (i18n.js's gen.bytes, gen.count).
    let words = page.script(
        "const t = window.endgameI18n.STRINGS.en; return [t['gen.bytes'](arguments[0]), t['gen.count'](arguments[1]), t['gen.time'](arguments[2])];",
        json!([22_816u64 << 20, 34_720_812_000_000u64, 5400.0]),
    );
    assert_eq!(words, json!(["22.3 GiB", "34,720,812,000,000", "90 min"]));
}

//! Numbers as people read them: the one convention of every interface (the command line, the
//! server's text fields, the page, the docs), so that one screen never mixes `MB`, `GiB` and
//! bare digits:
//!
//! - sizes in binary units with their names ([`bytes`]: `512 B`, `1.5 KiB`, `346 MiB`,
//!   `22.3 GiB`), to three significant digits;
//! - counts whole, their digits grouped in threes ([`count`]: `37,762,940,232`), and speeds as
//!   counts per second ([`rate`]);
//! - times in seconds, minutes or hours ([`duration`]: `40 s`, `3 min`, `2.5 h`).
//!
//! The page's `crates/server/assets/units.js` is the same in JavaScript, with the same
//! floating-point steps so that both round alike; a browser test compares the two on many
//! values. Every rounding is half away from zero on the value scaled by a power of ten, never
//! a formatter's own rounding (which differs between languages on exact ties).

/// The names of the binary units, 1024 times apart.
const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/// `n` with its digits grouped in threes: `1,234,567`.
#[must_use]
pub fn count(n: u64) -> String {
    group(&n.to_string())
}

/// A string of digits grouped in threes from the right.
fn group(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `value` (not negative) with at most `places` decimals, rounded half away from zero,
/// trailing zeros dropped, the whole part grouped: `1.5`, `22.3`, `1,000`.
fn decimal(value: f64, places: u32) -> String {
    let scale = 10f64.powi(places as i32);
    let scaled = (value * scale).round();
    // Exact for every value this module prints (below 2^53).
    let scaled = if scaled.is_finite() && scaled > 0.0 { scaled as u64 } else { 0 };
    let scale = 10u64.pow(places);
    let (whole, part) = (scaled / scale, scaled % scale);
    let mut text = count(whole);
    if part > 0 {
        let part = format!("{part:0width$}", width = places as usize);
        text.push('.');
        text.push_str(part.trim_end_matches('0'));
    }
    text
}

/// A size in bytes in the largest binary unit that keeps it at 1 or more, to three significant
/// digits, trailing zeros dropped: `0 B`, `1023 B`, `1.5 KiB`, `16 MiB`, `346 MiB`, `22.3 GiB`,
/// `1,000 MiB` (a value that rounds to 1024 of a unit is `1` of the next).
#[must_use]
pub fn bytes(n: u64) -> String {
    if n < 1024 {
        return format!("{n} B");
    }
    let mut unit = 0;
    let mut value = n as f64;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let places = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    if (value * 10f64.powi(places as i32)).round() >= 1024.0 * 10f64.powi(places as i32)
        && unit + 1 < UNITS.len()
    {
        return format!("1 {}", UNITS[unit + 1]);
    }
    format!("{} {}", decimal(value, places), UNITS[unit])
}

/// A speed (or any count per unit of time) as a whole count: `2,160`, `3,214,775`; `0` for a
/// negative or undefined one.
#[must_use]
pub fn rate(per_second: f64) -> String {
    decimal(per_second.max(0.0), 0)
}

/// A time for people: `1 s` (anything below 1.5 s, none or undefined included), `40 s` below
/// 2 minutes, `3 min` below 2 hours, then `2.5 h`.
#[must_use]
pub fn duration(seconds: f64) -> String {
    let seconds = if seconds.is_finite() { seconds.max(0.0) } else { 0.0 };
    if seconds < 120.0 {
        format!("{} s", decimal(seconds.max(1.0), 0))
    } else if seconds < 7200.0 {
        format!("{} min", decimal(seconds / 60.0, 0))
    } else {
        format!("{} h", decimal_fixed(seconds / 3600.0, 1))
    }
}

/// `value` with exactly `places` decimals (rounded half away from zero): `2.0`, `12.5`.
fn decimal_fixed(value: f64, places: u32) -> String {
    let text = decimal(value, places);
    let have = text.split_once('.').map_or(0, |(_, d)| d.len());
    let mut text = text;
    if have == 0 && places > 0 {
        text.push('.');
    }
    for _ in have..places as usize {
        text.push('0');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn counts_are_grouped_in_threes() {
        let cases = [
            (0, "0"),
            (7, "7"),
            (999, "999"),
            (1000, "1,000"),
            (48_600, "48,600"),
            (1_234_567, "1,234,567"),
            (37_762_940_232, "37,762,940,232"),
            (u64::MAX, "18,446,744,073,709,551,615"),
        ];
        for (n, text) in cases {
            assert_eq!(count(n), text);
        }
    }

    #[test]
    fn sizes_are_in_binary_units_with_three_digits() {
        let cases = [
            (0, "0 B"),
            (1023, "1023 B"),
            (1024, "1 KiB"),
            (1536, "1.5 KiB"),
            (1152, "1.13 KiB"), // 1.125: half away from zero, as JavaScript's Math.round
            (16 << 20, "16 MiB"),
            (346 * (1 << 20) + 300_000, "346 MiB"),
            (1000 << 20, "1,000 MiB"),
            ((1 << 30) - 1, "1 GiB"),
            (22_816 << 20, "22.3 GiB"),
            (12 << 30, "12 GiB"),
            (51_012 << 20, "49.8 GiB"),
            ((1 << 40) * 3 / 2, "1.5 TiB"),
            (u64::MAX, "16 EiB"),
        ];
        for (n, text) in cases {
            assert_eq!(bytes(n), text, "{n}");
        }
    }

    #[test]
    fn durations_and_rates() {
        let cases = [
            (-0.0, "1 s"),
            (f64::NAN, "1 s"),
            (0.4, "1 s"),
            (1.5, "2 s"),
            (40.2, "40 s"),
            (119.4, "119 s"),
            (120.0, "2 min"),
            (3540.0, "59 min"),
            (7200.0, "2.0 h"),
            (4.0 * 3600.0 + 15.0 * 60.0, "4.3 h"), // 4.25 h: half away from zero
        ];
        for (s, text) in cases {
            assert_eq!(duration(s), text, "{s}");
        }
        assert_eq!(rate(2159.5), "2,160");
        assert_eq!(rate(-3.0), "0");
        assert_eq!(rate(f64::NAN), "0");
        assert_eq!(rate(3_214_775.2), "3,214,775");
    }

    /// Reads a size back: the number and its unit.
    fn read_bytes(text: &str) -> f64 {
        let (number, unit) = text.split_once(' ').unwrap();
        let power = UNITS.iter().position(|u| *u == unit).unwrap();
        number.replace(',', "").parse::<f64>().unwrap() * 1024f64.powi(power as i32)
    }

    proptest! {
        #[test]
        fn a_count_reads_back(n in any::<u64>()) {
            let text = count(n);
            prop_assert_eq!(text.replace(',', "").parse::<u64>().unwrap(), n);
            let groups: Vec<&str> = text.split(',').collect();
            prop_assert!((1..=3).contains(&groups[0].len()));
            prop_assert!(groups[1..].iter().all(|g| g.len() == 3));
        }

        #[test]
        fn a_size_is_within_half_a_percent_and_in_its_unit(n in any::<u64>()) {
            let text = bytes(n);
            let back = read_bytes(&text);
            prop_assert!((back - n as f64).abs() <= 0.005 * n as f64, "{} read back as {}", n, back);
            let (number, unit) = text.split_once(' ').unwrap();
            let value: f64 = number.replace(',', "").parse().unwrap();
            if unit != "B" {
                prop_assert!((1.0..1024.0).contains(&value), "{}", text);
                // Three significant digits at most (four for 1,000 to 1,023).
                let digits = number.chars().filter(char::is_ascii_digit).count();
                prop_assert!(digits <= 3 || (digits == 4 && !number.contains('.')), "{}", text);
                prop_assert!(!number.ends_with('0') || !number.contains('.'), "{}", text);
            }
        }

        #[test]
        fn a_duration_is_near_its_seconds(s in 1.0f64..1e6) {
            let text = duration(s);
            let (number, unit) = text.split_once(' ').unwrap();
            let value: f64 = number.replace(',', "").parse().unwrap();
            let back = value * match unit { "s" => 1.0, "min" => 60.0, "h" => 3600.0, _ => unreachable!() };
            prop_assert!((back - s).abs() <= 0.5 * match unit { "s" => 1.0, "min" => 60.0, _ => 360.0 } + 1e-9, "{} as {}", s, text);
        }
    }
}

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| endgame_fuzz::xiangqi_xqf(data));

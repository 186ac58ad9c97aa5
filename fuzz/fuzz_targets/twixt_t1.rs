#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| endgame_fuzz::twixt_t1(data));

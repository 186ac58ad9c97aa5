//! The bytes of a text record as text: UTF-8 (with or without a byte-order mark), UTF-16
//! with a byte-order mark, and otherwise GB18030 (a superset of GBK and GB2312), the
//! encoding most Chinese collections are kept in. Invalid UTF-8 is taken for GB18030: no
//! GB18030 text of Chinese characters is valid UTF-8 by accident.

use std::borrow::Cow;

use encoding_rs::{GB18030, UTF_16BE, UTF_16LE};

use crate::record::error::RecordError;

/// The text of `bytes`, or where it cannot be decoded.
pub(crate) fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, RecordError> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return std::str::from_utf8(rest).map(Cow::Borrowed).map_err(|e| {
            RecordError::input(format!(
                "byte {}: invalid UTF-8 in a file that starts with the UTF-8 byte-order mark",
                e.valid_up_to() + 3
            ))
        });
    }
    for (bom, encoding) in [(b"\xFF\xFE", UTF_16LE), (b"\xFE\xFF", UTF_16BE)] {
        if let Some(rest) = bytes.strip_prefix(bom) {
            let name = encoding.name();
            return match encoding.decode_without_bom_handling_and_without_replacement(rest) {
                Some(text) => Ok(Cow::Owned(text.into_owned())),
                None => Err(RecordError::input(format!(
                    "invalid {name} in a file that starts with the {name} byte-order mark"
                ))),
            };
        }
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(Cow::Borrowed(text));
    }
    match GB18030.decode_without_bom_handling_and_without_replacement(bytes) {
        Some(text) => Ok(Cow::Owned(text.into_owned())),
        None => {
            // Name the first byte that is neither: the longest prefix GB18030 decodes.
            let offset = first_bad_gb18030(bytes);
            Err(RecordError::input(format!(
                "byte {offset}: the text is neither UTF-8 nor GB18030 (GBK): expected a PGN file in one of them, or an XQF file"
            )))
        }
    }
}

/// The offset of the first byte GB18030 cannot decode.
fn first_bad_gb18030(bytes: &[u8]) -> usize {
    let mut decoder = GB18030.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(bytes.len() * 3 + 16);
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut out, true);
    match result {
        encoding_rs::DecoderResult::Malformed(bad, _) => read.saturating_sub(usize::from(bad)),
        _ => read,
    }
}

/// A GB18030 field of a binary record (an XQF title or name), decoded with replacement
/// characters for what is not GB18030: a damaged name is no reason to refuse a game.
pub(crate) fn decode_gb18030_lossy(bytes: &[u8]) -> String {
    GB18030.decode_without_bom_handling(bytes).0.into_owned()
}

//! Kafka's `Uuid.fromString` (clients/.../common/Uuid.java:134-148) over Java 17's URL-safe
//! `Base64.Decoder`, with their IllegalArgumentException messages, for the tools that read a
//! directory id from the command line (`--initial-controllers`, `--controller-directory-id`).
//! The decoder's messages were checked against OpenJDK 17 (`Base64.getUrlDecoder().decode`).

use crate::common::uuid::Uuid;

/// The value of a URL-safe base64 character; -2 for the padding `=`, -1 for any other.
fn value(b: u8) -> i32 {
    match b {
        b'A'..=b'Z' => (b - b'A') as i32,
        b'a'..=b'z' => (b - b'a') as i32 + 26,
        b'0'..=b'9' => (b - b'0') as i32 + 52,
        b'-' => 62,
        b'_' => 63,
        b'=' => -2,
        _ => -1,
    }
}

/// `Base64.getUrlDecoder().decode(String)`: the bytes, or the IllegalArgumentException's
/// message. The string is read as ISO-8859-1, as `String.getBytes(ISO_8859_1)` does (a
/// character past U+00FF becomes `?`).
pub fn base64_url_decode(s: &str) -> Result<Vec<u8>, String> {
    let src: Vec<u8> = s
        .chars()
        .map(|c| {
            if (c as u32) <= 0xff {
                c as u32 as u8
            } else {
                b'?'
            }
        })
        .collect();
    if src.len() == 1 {
        return Err("Input byte[] should at least have 2 bytes for base64 bytes".into());
    }
    let mut out = Vec::new();
    let (mut bits, mut shift, mut sp) = (0u32, 18i32, 0usize);
    while sp < src.len() {
        let c = src[sp];
        sp += 1;
        let b = value(c);
        if b == -2 {
            let bad = (shift == 6
                && (sp == src.len() || {
                    let next = src[sp];
                    sp += 1;
                    next != b'='
                }))
                || shift == 18;
            if bad {
                return Err("Input byte array has wrong 4-byte ending unit".into());
            }
            break;
        }
        if b < 0 {
            return Err(format!(
                "Illegal base64 character {}",
                java_hex(c as i8 as i32)
            ));
        }
        bits |= (b as u32) << shift;
        shift -= 6;
        if shift < 0 {
            out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]);
            shift = 18;
            bits = 0;
        }
    }
    match shift {
        6 => out.push((bits >> 16) as u8),
        0 => out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8]),
        12 => return Err("Last unit does not have enough valid bits".into()),
        _ => {}
    }
    if sp < src.len() {
        return Err(format!(
            "Input byte array has incorrect ending byte at {sp}"
        ));
    }
    Ok(out)
}

/// `Integer.toString(n, 16)`: lower-case hex with a minus sign for negatives.
fn java_hex(n: i32) -> String {
    if n < 0 {
        format!("-{:x}", -(n as i64))
    } else {
        format!("{n:x}")
    }
}

/// `Uuid.fromString`: the id, or the IllegalArgumentException's message.
pub fn uuid_from_string(s: &str) -> Result<Uuid, String> {
    if s.encode_utf16().count() > 24 {
        let prefix: String =
            String::from_utf16_lossy(&s.encode_utf16().take(24).collect::<Vec<_>>());
        return Err(format!(
            "Input string with prefix `{prefix}` is too long to be decoded as a base64 UUID"
        ));
    }
    let bytes = base64_url_decode(s)?;
    if bytes.len() != 16 {
        return Err(format!(
            "Input string `{s}` decoded as {} bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID",
            bytes.len()
        ));
    }
    let mut id = [0u8; 16];
    id.copy_from_slice(&bytes);
    Ok(Uuid(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers OpenJDK 17 gives (`Base64.getUrlDecoder().decode(s)`).
    #[test]
    fn decodes_and_fails_as_java_17_does() {
        let len = |s: &str| base64_url_decode(s).map(|b| b.len());
        assert_eq!(len(""), Ok(0));
        assert_eq!(
            len("A"),
            Err("Input byte[] should at least have 2 bytes for base64 bytes".into())
        );
        assert_eq!(len("AB"), Ok(1));
        assert_eq!(len("abc!"), Err("Illegal base64 character 21".into()));
        assert_eq!(len("xyz+"), Err("Illegal base64 character 2b".into()));
        assert_eq!(len("AAAAAAAAAAAAAAAAAAAAAA"), Ok(16));
        assert_eq!(
            len("AAAAAAAAAAAAAAAAAAAAA"),
            Err("Last unit does not have enough valid bits".into())
        );
        assert_eq!(len("AAAAAAAAAAAAAAAAAAAAAAA"), Ok(17));
        assert_eq!(
            len("AA=A"),
            Err("Input byte array has wrong 4-byte ending unit".into())
        );
        assert_eq!(len("AAA="), Ok(2));
        assert_eq!(
            len("A="),
            Err("Last unit does not have enough valid bits".into())
        );
        assert_eq!(len("éé"), Err("Illegal base64 character -17".into()));
        assert_eq!(len("ab€d"), Err("Illegal base64 character 3f".into()));
        assert_eq!(len("AAAAAA=="), Ok(4));
        assert_eq!(
            len("AAAAAA="),
            Err("Input byte array has wrong 4-byte ending unit".into())
        );
        assert_eq!(
            len("AAAAAA==x"),
            Err("Input byte array has incorrect ending byte at 8".into())
        );
        assert_eq!(len("-_-_"), Ok(3));
    }

    #[test]
    fn uuids_round_trip_and_fail_as_kafka_does() {
        let id = Uuid([7; 16]);
        assert_eq!(uuid_from_string(&id.to_string()), Ok(id));
        assert_eq!(
            uuid_from_string("AAAA"),
            Err("Input string `AAAA` decoded as 3 bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID".into())
        );
        assert!(uuid_from_string("AAAAAAAAAAAAAAAAAAAAAAAAAAAA")
            .unwrap_err()
            .starts_with("Input string with prefix `AAAAAAAAAAAAAAAAAAAAAAAA` is too long"));
    }
}

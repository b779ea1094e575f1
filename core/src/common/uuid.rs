//! Kafka's `Uuid` as printed by its tools: URL-safe base64 without padding (22 characters).

use crate::common::rng::SimRng;
use std::fmt;

/// A 128-bit id (cluster id, directory id, topic id, incarnation id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Uuid(pub [u8; 16]);

impl Uuid {
    /// The all-zero id Kafka prints as `AAAAAAAAAAAAAAAAAAAAAA`.
    pub const ZERO: Uuid = Uuid([0; 16]);

    /// A random id drawn from the world's generator, avoiding the reserved zero id and ids that
    /// start with `-` (Kafka re-draws those too).
    pub fn random(rng: &mut SimRng) -> Uuid {
        loop {
            let id = Uuid(rng.bytes16());
            let text = id.to_string();
            if id != Uuid::ZERO && !text.starts_with('-') {
                return id;
            }
        }
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = &self.0;
        let mut out = String::with_capacity(22);
        let mut i = 0;
        while i + 3 <= 15 {
            let n = (bytes[i] as u32) << 16 | (bytes[i + 1] as u32) << 8 | bytes[i + 2] as u32;
            for shift in [18, 12, 6, 0] {
                out.push(ALPHABET[((n >> shift) & 63) as usize] as char);
            }
            i += 3;
        }
        // 15 bytes done, one byte left: two characters without padding.
        let n = (bytes[15] as u32) << 16;
        out.push(ALPHABET[((n >> 18) & 63) as usize] as char);
        out.push(ALPHABET[((n >> 12) & 63) as usize] as char);
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_prints_like_kafka() {
        assert_eq!(Uuid::ZERO.to_string(), "AAAAAAAAAAAAAAAAAAAAAA");
    }

    #[test]
    fn random_ids_are_22_chars() {
        let mut rng = SimRng::new(3);
        for _ in 0..100 {
            let s = Uuid::random(&mut rng).to_string();
            assert_eq!(s.len(), 22);
            assert!(!s.starts_with('-'));
        }
    }
}

//! Kafka's `Uuid`: 128 bits written as 22 characters of URL-safe base64 without padding
//! (`eZUeEuqvSSGGPuIabmBwqg`). Topic ids are `Uuid`s, and so are the member ids clients generate under
//! KIP-848 (the assignors treat member ids as plain strings).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::java;

/// A Kafka `Uuid`, the two signed 64-bit halves Java keeps.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Uuid {
    /// The first eight bytes, big-endian.
    pub most_significant: i64,
    /// The last eight bytes, big-endian.
    pub least_significant: i64,
}

/// Why a string is not a `Uuid`; the messages follow `Uuid.fromString`'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UuidError {
    /// More than 24 characters.
    TooLong(String),
    /// A character outside URL-safe base64.
    IllegalCharacter {
        /// The whole text.
        text: String,
        /// The first character refused.
        character: char,
    },
    /// The text decodes to something other than 16 bytes.
    WrongLength {
        /// The whole text.
        text: String,
        /// How many bytes it decodes to.
        bytes: usize,
    },
}

impl fmt::Display for UuidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UuidError::TooLong(text) => {
                let prefix: String = text.chars().take(24).collect();
                write!(f, "input string with prefix `{prefix}` is too long to be decoded as a base64 UUID")
            }
            UuidError::IllegalCharacter { text, character } => {
                write!(f, "`{text}` is not URL-safe base64: illegal character {character:?}")
            }
            UuidError::WrongLength { text, bytes } => write!(
                f,
                "input string `{text}` decoded as {bytes} bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID"
            ),
        }
    }
}

impl std::error::Error for UuidError {}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

impl Uuid {
    /// A `Uuid` from its two halves.
    pub const fn new(most_significant: i64, least_significant: i64) -> Self {
        Uuid { most_significant, least_significant }
    }

    /// `Uuid.hashCode`, which places topic ids in the coordinator's `HashSet`s.
    pub fn java_hash(self) -> i32 {
        java::uuid_hash(self.most_significant, self.least_significant)
    }

    fn bytes(self) -> [u8; 16] {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.most_significant.to_be_bytes());
        bytes[8..].copy_from_slice(&self.least_significant.to_be_bytes());
        bytes
    }
}

/// `Uuid.compareTo`: signed halves, most significant first.
impl Ord for Uuid {
    fn cmp(&self, other: &Self) -> Ordering {
        java::cmp_uuid(
            (self.most_significant, self.least_significant),
            (other.most_significant, other.least_significant),
        )
    }
}

impl PartialOrd for Uuid {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `Uuid.fromString`: Java's URL-safe base64 decoder, padding optional, unused trailing bits ignored.
impl FromStr for Uuid {
    type Err = UuidError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.chars().count() > 24 {
            return Err(UuidError::TooLong(text.to_string()));
        }
        let digits = text.strip_suffix("==").or_else(|| text.strip_suffix('=')).unwrap_or(text);
        let mut bytes = Vec::with_capacity(18);
        let (mut bits, mut pending) = (0u32, 0u32);
        for character in digits.chars() {
            let value = u8::try_from(character)
                .ok()
                .and_then(|c| ALPHABET.iter().position(|&a| a == c))
                .ok_or_else(|| UuidError::IllegalCharacter { text: text.to_string(), character })?;
            bits = (bits << 6) | value as u32;
            pending += 6;
            if pending >= 8 {
                pending -= 8;
                bytes.push((bits >> pending) as u8);
                bits &= (1 << pending) - 1;
            }
        }
        let array: [u8; 16] = bytes
            .as_slice()
            .try_into()
            .map_err(|_| UuidError::WrongLength { text: text.to_string(), bytes: bytes.len() })?;
        let half = |range: std::ops::Range<usize>| {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(&array[range]);
            i64::from_be_bytes(eight)
        };
        Ok(Uuid::new(half(0..8), half(8..16)))
    }
}

/// `Uuid.toString`: 22 characters of URL-safe base64.
impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.bytes();
        let mut text = String::with_capacity(22);
        for chunk in bytes.chunks(3) {
            let word = chunk.iter().fold(0u32, |w, &b| (w << 8) | u32::from(b)) << (8 * (3 - chunk.len()));
            for i in 0..=chunk.len() {
                text.push(char::from(ALPHABET[(word >> (18 - 6 * i) & 63) as usize]));
            }
        }
        f.write_str(&text)
    }
}

impl fmt::Debug for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_kafka_ids() {
        for text in ["eZUeEuqvSSGGPuIabmBwqg", "T1-A4s3VTwiI5CTbEp6POw", "AAAAAAAAAAAAAAAAAAAAAQ"] {
            let id: Uuid = text.parse().unwrap();
            assert_eq!(id.to_string(), text);
        }
        assert_eq!("AAAAAAAAAAAAAAAAAAAAAQ".parse::<Uuid>().unwrap(), Uuid::new(0, 1));
        assert_eq!("AAAAAAAAAAAAAAAAAAAAAQ==".parse::<Uuid>().unwrap(), Uuid::new(0, 1));
    }

    #[test]
    fn refuses_what_kafka_refuses() {
        assert!(matches!("abc".parse::<Uuid>(), Err(UuidError::WrongLength { bytes: 2, .. })));
        assert!(matches!("AAAAAAAAAAAAAAAAAAAAAAAAA".parse::<Uuid>(), Err(UuidError::TooLong(_))));
        assert!(matches!("AAAAAAAAAAAAAAAAAAAAA+".parse::<Uuid>(), Err(UuidError::IllegalCharacter { .. })));
    }
}

//! Topic ids: the Kafka `Uuid` a cluster gives a topic when it is created (KIP-516). The consumer
//! protocol's assignors see topics by id, and the homogeneous `uniform` builder walks a `HashSet` of
//! them, so an id can decide who gets a partition.
//!
//! A scenario's topic keeps the id it was given (`"id"` in the file, typed on the page to reproduce a
//! cluster); a topic without one has the id [`derived`] from its name. The derivation is part of the
//! format: a link posted once must show the same assignment forever, so it never changes.
//!
//! ```
//! let id = scenario::topic_id::derived("orders");
//! assert_eq!(id.to_string(), "VjJEAPucQBmmDT6pw0XsYg");
//! assert_eq!(scenario::topic_id::problem("AAAAAAAAAAAAAAAAAAAAAA").as_deref(),
//!     Some("AAAAAAAAAAAAAAAAAAAAAA is Kafka's reserved ZERO_UUID, never a topic's id"));
//! ```

use assignor::Uuid;

use crate::validate::longer_than;

/// The id of a topic named `name` that was given none: what Kafka's `Uuid.randomUuid` could have
/// returned (a version 4 UUID, not reserved, not starting with `-`), drawn from the name's FNV-1a
/// hashes instead of a random generator.
pub fn derived(name: &str) -> Uuid {
    (0u64..)
        .map(|attempt| {
            let most = splitmix(fnv1a(name, attempt.wrapping_mul(2)));
            let least = splitmix(fnv1a(name, attempt.wrapping_mul(2) + 1));
            // `UUID.randomUUID`'s version (4) and variant (IETF) bits.
            let most = (most & !0xF000) | 0x4000;
            let least = (least & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000;
            Uuid::new(most as i64, least as i64)
        })
        .find(|id| !id.to_string().starts_with('-'))
        .unwrap_or(Uuid::new(0x4000, i64::MIN))
}

/// FNV-1a of `text`, the attempt number folded in first.
fn fnv1a(text: &str, attempt: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in attempt.to_le_bytes().iter().chain(text.as_bytes()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// SplitMix64's finalizer: every bit of the input moves every bit of the output.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The longest text `Uuid.fromString` reads: 22 characters and two of padding.
const MAX_TEXT: usize = 24;

/// Why `text` cannot be a topic's id, as Kafka decides it: `Uuid.fromString` must read it (URL-safe
/// base64 of 16 bytes) and it must not be one of `Uuid.RESERVED` (`ZERO_UUID`, which means "no id",
/// and `ONE_UUID`, the metadata topic's).
pub fn problem(text: &str) -> Option<String> {
    if longer_than(text, MAX_TEXT) {
        let prefix: String = text.chars().take(MAX_TEXT).collect();
        return Some(format!("input string with prefix `{prefix}` is too long to be decoded as a base64 UUID"));
    }
    match text.parse::<Uuid>() {
        Err(e) => Some(e.to_string()),
        Ok(id) if id == Uuid::new(0, 0) => Some(format!("{text} is Kafka's reserved ZERO_UUID, never a topic's id")),
        Ok(id) if id == Uuid::new(0, 1) => {
            Some(format!("{text} is Kafka's reserved ONE_UUID, the id of the metadata topic __cluster_metadata"))
        }
        Ok(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_ids_are_fixed_valid_and_distinct() {
        // Frozen: links made before an id was typed rely on these.
        assert_eq!(derived("T1").to_string(), "wujVZENMTA6ZTIeD1ryoKg");
        assert_eq!(derived("").to_string(), "W6MUuM_aS2uCvjYnwr_jUw");
        let ids: std::collections::HashSet<Uuid> = (0..10_000).map(|i| derived(&format!("t{i}"))).collect();
        assert_eq!(ids.len(), 10_000);
        for id in ids.iter().take(200) {
            let text = id.to_string();
            assert_eq!(problem(&text), None, "{text}");
            assert!(!text.starts_with('-'));
        }
    }

    #[test]
    fn problems_are_kafkas() {
        assert_eq!(problem("eZUeEuqvSSGGPuIabmBwqg"), None);
        assert_eq!(problem("eZUeEuqvSSGGPuIabmBwqg=="), None);
        assert_eq!(
            problem("AAAAAAAAAAAAAAAAAAAAAQ").as_deref(),
            Some(
                "AAAAAAAAAAAAAAAAAAAAAQ is Kafka's reserved ONE_UUID, the id of the metadata topic __cluster_metadata"
            )
        );
        assert_eq!(
            problem("orders").as_deref(),
            Some(
                "input string `orders` decoded as 4 bytes, which is not equal to the expected 16 bytes of a \
                 base64-encoded UUID"
            )
        );
        assert_eq!(
            problem("eZUeEuqvSSGGPuIabmBw+g").as_deref(),
            Some("`eZUeEuqvSSGGPuIabmBw+g` is not URL-safe base64: illegal character '+'")
        );
        let long = "x".repeat(1 << 20);
        assert_eq!(
            problem(&long).as_deref(),
            Some("input string with prefix `xxxxxxxxxxxxxxxxxxxxxxxx` is too long to be decoded as a base64 UUID")
        );
    }
}

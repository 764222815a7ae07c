//! The places where Java itself leaks into Kafka's assignments: string order, `HashMap` iteration
//! order, and Kafka's `Uuid` hash code and order (KIP-848's assignors work on topic ids). All are
//! emulated here and nowhere else.

use std::cmp::Ordering;

/// Java's `String.compareTo`: UTF-16 code units, not code points. The two orders differ only when a
/// character at or above U+10000 meets one in U+E000..=U+FFFF, which an ASCII string never has.
pub fn cmp_str(a: &str, b: &str) -> Ordering {
    // UTF-8 bytes order like code points. Where the first differing bytes are both ASCII, the
    // code points there are ASCII too, and code point order is UTF-16 order.
    let differ = a.bytes().zip(b.bytes()).position(|(x, y)| x != y);
    match differ {
        None => a.len().cmp(&b.len()),
        Some(i) if a.as_bytes()[i].is_ascii() && b.as_bytes()[i].is_ascii() => a.as_bytes()[i].cmp(&b.as_bytes()[i]),
        Some(_) => a.encode_utf16().cmp(b.encode_utf16()),
    }
}

/// Java's `String.hashCode`: `h = 31 * h + unit` over UTF-16 code units, wrapping.
pub fn string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, unit| h.wrapping_mul(31).wrapping_add(i32::from(unit)))
}

/// Kafka's `TopicPartition.hashCode`, from the topic's string hash.
pub fn topic_partition_hash(topic_hash: i32, partition: u32) -> i32 {
    // Partition numbers are Java ints; ours stay below 2^31 by validation.
    let partition = partition as i32;
    31i32.wrapping_mul(31i32.wrapping_add(partition)).wrapping_add(topic_hash)
}

/// Kafka's `Uuid.hashCode`: the two 64-bit halves xor-ed, then folded to 32 bits.
pub fn uuid_hash(most_significant: i64, least_significant: i64) -> i32 {
    let xor = most_significant ^ least_significant;
    ((xor >> 32) as i32) ^ (xor as i32)
}

/// Kafka's `Uuid.compareTo`: the most significant half, then the least, each as a *signed* long.
pub fn cmp_uuid(a: (i64, i64), b: (i64, i64)) -> Ordering {
    a.0.cmp(&b.0).then(a.1.cmp(&b.1))
}

/// Java's `Integer.hashCode`: the value itself.
pub fn int_hash(value: u32) -> i32 {
    // Partition numbers are Java ints; ours stay below 2^31 by validation.
    value as i32
}

/// The table size of `new HashSet<>(collection)` for a collection of `len` elements (Java 17:
/// `new HashMap<>(max((int) (len / .75f) + 1, 16))`, rounded up to a power of two; it never grows
/// afterwards). JDK 19 changed this sizing (`HashMap.newHashMap`): 24 elements get 32 buckets there,
/// 64 here, so iteration orders can differ between JVMs.
pub fn copied_set_table_size(len: usize) -> usize {
    let requested = ((len as f32 / 0.75f32) as usize + 1).max(16);
    requested.next_power_of_two()
}

/// How a Java `HashMap` links a new key into its bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// `put` / `add`: at the tail, so keys of one bucket iterate in insertion order.
    Tail,
    /// `computeIfAbsent` / `compute` / `merge` build a new node in front of the bucket's chain.
    Head,
}

/// The table size of a default `HashMap` after `len` distinct keys were inserted: 16, doubled
/// whenever the size exceeds three quarters of it.
pub fn table_size(len: usize) -> usize {
    let mut capacity = 16usize;
    while len > capacity / 4 * 3 {
        capacity *= 2;
    }
    capacity
}

/// The bucket index of a hash in a table of `capacity` (a power of two).
pub(crate) fn bucket(hash: i32, capacity: usize) -> usize {
    let h = hash as u32;
    ((h ^ (h >> 16)) as usize) & (capacity - 1)
}

/// The order in which a default Java `HashMap`/`HashSet` iterates keys that were inserted in the
/// order of `hashes` (one hash per distinct key), as indices into `hashes`.
///
/// Iteration walks the table bucket by bucket; a resize keeps the relative order of a bucket's
/// keys, so only the final table size matters. (Treeified bins, eight or more keys colliding in a
/// table of 64 or more, are not emulated: they need pathological names.)
pub fn iteration_order(hashes: &[i32], link: Link) -> Vec<usize> {
    iteration_order_in(hashes, link, table_size(hashes.len()))
}

/// [`iteration_order`] for a table already grown to `capacity` (maps never shrink).
pub fn iteration_order_in(hashes: &[i32], link: Link, capacity: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..hashes.len()).collect();
    match link {
        // A stable sort keeps insertion order inside each bucket.
        Link::Tail => order.sort_by_key(|&i| hashes.get(i).map_or(0, |&h| bucket(h, capacity))),
        Link::Head => order.sort_by_key(|&i| (hashes.get(i).map_or(0, |&h| bucket(h, capacity)), std::cmp::Reverse(i))),
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hash_matches_java() {
        // Values computed by java.lang.String.hashCode.
        assert_eq!(string_hash(""), 0);
        assert_eq!(string_hash("a"), 97);
        assert_eq!(string_hash("consumer1"), -421_004_549);
        assert_eq!(string_hash("topic"), 110_546_223);
        assert_eq!(string_hash("😀"), 1_772_899);
    }

    #[test]
    fn utf16_order_differs_from_code_points_only_above_the_bmp() {
        let private_use = "\u{E000}";
        let emoji = "😀";
        assert_eq!(private_use.cmp(emoji), Ordering::Less);
        assert_eq!(cmp_str(private_use, emoji), Ordering::Greater);
        assert_eq!(cmp_str("a", "b"), Ordering::Less);
        assert_eq!(cmp_str("ab", "a"), Ordering::Greater);
        // After an equal prefix, ASCII or not, and where ASCII meets a multi-byte character.
        assert_eq!(cmp_str("topic-\u{E000}", "topic-😀"), Ordering::Greater);
        assert_eq!(cmp_str("é1", "é2"), Ordering::Less);
        assert_eq!(cmp_str("a", "é"), Ordering::Less);
        assert_eq!(cmp_str("t\u{E000}", "t\u{E000}"), Ordering::Equal);
        assert_eq!(cmp_str("t\u{E000}", "t\u{E000}x"), Ordering::Less);
    }

    #[test]
    fn table_grows_past_three_quarters() {
        assert_eq!(table_size(0), 16);
        assert_eq!(table_size(12), 16);
        assert_eq!(table_size(13), 32);
        assert_eq!(table_size(2000), 4096);
    }

    #[test]
    fn kafka_test_members_iterate_in_javas_order() {
        // AbstractStickyAssignorTest relies on Java iterating consumer3, consumer2, consumer1.
        let hashes: Vec<i32> = ["consumer1", "consumer2", "consumer3"].iter().map(|s| string_hash(s)).collect();
        assert_eq!(iteration_order(&hashes, Link::Tail), vec![2, 1, 0]);
    }

    #[test]
    fn uuid_hash_and_order_match_kafka() {
        assert_eq!(uuid_hash(0, 1), 1);
        assert_eq!(uuid_hash(1 << 32, 0), 1);
        assert_eq!(uuid_hash(-1, 0), 0);
        // Signed halves: a negative most significant half sorts first.
        assert_eq!(cmp_uuid((-1, 0), (0, 0)), Ordering::Less);
        assert_eq!(cmp_uuid((0, -1), (0, 1)), Ordering::Less);
    }

    #[test]
    fn copied_sets_are_sized_like_java_17() {
        assert_eq!(copied_set_table_size(0), 16);
        assert_eq!(copied_set_table_size(12), 32);
        assert_eq!(copied_set_table_size(11), 16);
        assert_eq!(copied_set_table_size(24), 64);
        assert_eq!(copied_set_table_size(2000), 4096);
    }

    #[test]
    fn head_links_reverse_a_bucket() {
        // 0 and 16 share bucket 0 of a 16-slot table.
        assert_eq!(iteration_order(&[0, 16, 1], Link::Tail), vec![0, 1, 2]);
        assert_eq!(iteration_order(&[0, 16, 1], Link::Head), vec![1, 0, 2]);
    }
}

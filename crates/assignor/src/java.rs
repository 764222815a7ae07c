//! The places where Java itself leaks into Kafka's assignments: string order, hash codes, the
//! iteration order of `HashMap` and `HashSet`, and Kafka's `Uuid` hash code and order (KIP-848's
//! assignors work on topic ids). All are emulated here and nowhere else.

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

/// Each name's rank in Java's `String` order (the order a `TreeMap` of them iterates in): the
/// name at `i` comes `ranks[i]`-th. Comparing ranks orders by name without comparing strings.
pub(crate) fn string_ranks(names: &[&str]) -> Vec<u32> {
    let mut by_name: Vec<usize> = (0..names.len()).collect();
    by_name.sort_unstable_by(|&a, &b| cmp_str(names[a], names[b]));
    let mut ranks = vec![0u32; names.len()];
    for (rank, &at) in by_name.iter().enumerate() {
        ranks[at] = rank as u32;
    }
    ranks
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

/// The table size of a `HashMap` filled by one `computeIfAbsent` call per element of `blocks`
/// (each call's key, keys numbered by first appearance; `hashes`: per key), as Kafka's
/// `groupPartitionsByTopic` fills one. Unlike `put`, `computeIfAbsent` grows the table *before* its work, on every call, found
/// key or not, once the map holds more than three quarters of the table; and a new key landing in
/// a bucket that already holds 7 makes a table under 64 slots grow instead of turning into a tree.
pub(crate) fn compute_if_absent_table_size(blocks: impl Iterator<Item = u32>, hashes: &[i32]) -> usize {
    let mut capacity = 16usize;
    let mut size = 0usize;
    for block in blocks {
        if size > capacity / 4 * 3 {
            capacity *= 2;
        }
        if block as usize == size {
            if capacity < 64 {
                let new_key = bucket(hashes[size], capacity);
                let chain = hashes[..size].iter().filter(|&&h| bucket(h, capacity) == new_key).count();
                if chain >= 7 {
                    capacity *= 2;
                }
            }
            size += 1;
        }
    }
    capacity
}

/// Each key's position in the iteration order of a `HashMap` whose keys (hashes `hashes`, in
/// insertion order) were linked in front of their bucket (`computeIfAbsent`), in a table of
/// `capacity`: by bucket, and inside a bucket the latest key first (resizes keep the order inside
/// a bucket). `scratch` is reused between calls.
pub(crate) fn head_linked_ranks(hashes: &[i32], capacity: usize, scratch: &mut Vec<u32>) -> Vec<u32> {
    let buckets: Vec<usize> = hashes.iter().map(|&h| bucket(h, capacity)).collect();
    let start = scratch;
    start.clear();
    start.resize(capacity + 1, 0);
    for &b in &buckets {
        start[b + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut rank = vec![0u32; hashes.len()];
    for (key, &b) in buckets.iter().enumerate().rev() {
        rank[key] = start[b];
        start[b] += 1;
    }
    rank
}

/// A default `java.util.HashSet` reduced to what the sticky assignor reads of it: the element it
/// iterates first. Iteration walks the table bucket by bucket, each bucket in insertion order; a
/// resize keeps that order inside the buckets it splits.
pub(crate) struct HashSetOrder<K> {
    /// The table: `buckets.len()` is the capacity, 16 and doubled as Java's grows.
    buckets: Vec<Vec<(K, i32)>>,
    /// A bit per bucket that holds something, to find the first one.
    occupied: Vec<u64>,
    len: usize,
}

impl<K: Copy + PartialEq> HashSetOrder<K> {
    pub fn new() -> Self {
        HashSetOrder { buckets: Self::table(16), occupied: vec![0; 1], len: 0 }
    }

    fn table(capacity: usize) -> Vec<Vec<(K, i32)>> {
        std::iter::repeat_with(Vec::new).take(capacity).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element Java iterates first.
    pub fn first(&self) -> Option<K> {
        let word = self.occupied.iter().position(|&w| w != 0)?;
        let bucket = word * 64 + self.occupied[word].trailing_zeros() as usize;
        self.buckets.get(bucket).and_then(|chain| chain.first()).map(|&(key, _)| key)
    }

    /// Adds `key` (not yet in the set), whose `hashCode` is `hash`.
    pub fn insert(&mut self, key: K, hash: i32) {
        let b = bucket(hash, self.buckets.len());
        let chain = self.buckets[b].len();
        self.buckets[b].push((key, hash));
        self.occupied[b / 64] |= 1 << (b % 64);
        self.len += 1;
        // A ninth key in one bucket makes a table under 64 slots grow instead of turning the
        // bucket into a tree (trees in larger tables are not emulated: they need pathological
        // hash collisions).
        if chain >= 8 && self.buckets.len() < 64 {
            self.grow();
        }
        if self.len > self.buckets.len() / 4 * 3 {
            self.grow();
        }
    }

    pub fn remove(&mut self, key: K, hash: i32) {
        let b = bucket(hash, self.buckets.len());
        let chain = &mut self.buckets[b];
        if let Some(i) = chain.iter().position(|&(k, _)| k == key) {
            chain.remove(i);
            self.len -= 1;
            if chain.is_empty() {
                self.occupied[b / 64] &= !(1 << (b % 64));
            }
        }
    }

    /// Doubles the table; each bucket splits in two, keeping its order.
    fn grow(&mut self) {
        let capacity = self.buckets.len() * 2;
        let old = std::mem::replace(&mut self.buckets, Self::table(capacity));
        self.occupied = vec![0; capacity.div_ceil(64)];
        for (key, hash) in old.into_iter().flatten() {
            let b = bucket(hash, capacity);
            self.buckets[b].push((key, hash));
            self.occupied[b / 64] |= 1 << (b % 64);
        }
    }
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
    fn hash_set_iterates_buckets_then_insertion_order() {
        let mut set = HashSetOrder::new();
        assert_eq!(set.first(), None);
        // 16 and 0 share bucket 0 of a 16-slot table; 5 is in bucket 5.
        for key in [5, 16, 0] {
            set.insert(key, key);
        }
        assert_eq!(set.first(), Some(16));
        set.remove(16, 16);
        assert_eq!(set.first(), Some(0));
        set.remove(0, 0);
        assert_eq!(set.first(), Some(5));
        set.remove(5, 5);
        assert!(set.is_empty());
    }

    #[test]
    fn hash_set_grows_past_three_quarters_and_on_a_long_chain() {
        let mut set = HashSetOrder::new();
        // 16 and 32 share bucket 0 of a 16-slot table; 13 keys exceed 16 * 3/4, the table doubles
        // to 32 and 16 moves to bucket 16, behind 32 and 1..=11.
        for key in [16, 32].into_iter().chain(1..=10) {
            set.insert(key, key);
        }
        assert_eq!(set.first(), Some(16));
        set.insert(11, 11);
        assert_eq!(set.first(), Some(32));
        // Nine keys in bucket 0 of a 16-slot table: it grows instead of making a tree.
        let mut chain = HashSetOrder::new();
        for k in 0..9 {
            chain.insert(k, k * 16);
        }
        assert_eq!(chain.first(), Some(0));
        chain.remove(0, 0);
        // In a 32-slot table, 32 (k = 2) shares bucket 0 with 64 (k = 4), ahead of it.
        assert_eq!(chain.first(), Some(2));
    }

    #[test]
    fn head_links_reverse_a_bucket() {
        // 0 and 16 share bucket 0 of a 16-slot table.
        assert_eq!(iteration_order(&[0, 16, 1], Link::Tail), vec![0, 1, 2]);
        assert_eq!(iteration_order(&[0, 16, 1], Link::Head), vec![1, 0, 2]);
    }

    #[test]
    fn compute_if_absent_grows_before_each_call() {
        // 13 keys: `put` would have grown to 32 on the 13th; computeIfAbsent grows only on the
        // next call, even one for a key already there.
        let hashes: Vec<i32> = (0..13).collect();
        assert_eq!(compute_if_absent_table_size(0..13, &hashes), 16);
        assert_eq!(compute_if_absent_table_size((0..13).chain([0]), &hashes), 32);
    }

    #[test]
    fn a_long_chain_grows_a_small_table() {
        // Eight keys in bucket 0 of a 16-slot table: the eighth finds 7 there and doubles it.
        let hashes: Vec<i32> = (0..8).map(|i| i * 64).collect();
        assert_eq!(compute_if_absent_table_size(0..8, &hashes), 32);
    }

    #[test]
    fn head_linked_keys_iterate_latest_first_in_a_bucket() {
        // 0 and 16 share bucket 0 of a 16-slot table, 1 is in bucket 1: 16, 0, 1.
        assert_eq!(head_linked_ranks(&[0, 1, 16], 16, &mut Vec::new()), vec![1, 2, 0]);
    }
}

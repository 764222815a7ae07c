//! Format 2's compact forms, which keep a large group small in a file, a link and the page's saved
//! copy: Kafka's large assignor test (500 topics × 2,000 partitions, 2,000 consumers) lists a
//! million partitions per strategy and a million subscribed topic names in format 1.
//!
//! - **Partition lists as runs.** A previous assignment names its topics once, in a `layout` of
//!   `[topic, span]` pairs; partition `p` of the layout's topic `t` is the flat index
//!   `spans before t + p`. A member's list is its flat indices, in the member's own order, written
//!   as runs: `5` one index, `5-9` five in a row, `5-1995/10` every tenth from 5 to 1995 (cron's
//!   notation). Range and roundrobin hand out exactly such runs; sticky keeps them.
//! - **Shared subscriptions.** Consumers that subscribe to the same topic list name it once:
//!   `{"topics": [...], "consumers": "0-1999"}`, the consumers given by their positions in runs.
//!
//! Every function here is pure: the page's worker may encode and decode an assignment on its own.
//! Reading refuses what it cannot expand within bounds ([`MAX_ENTRIES`]), with a message that says
//! where.

use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write as _};

use crate::format::{ConsumerSpec, Owned, TopicSpec};

/// A scenario is written in the compact form (format 2) when the long form would write more than
/// this many topic names in subscriptions and previous assignments (about 40 KB of JSON); below,
/// in format 1 as always, which every earlier version reads.
pub const COMPACT_ABOVE: usize = 2_000;

/// The most partitions the compact lists of one scenario may expand to, all strategies together:
/// four strategies' assignments of the largest group (1,000,000 partitions). Checked before
/// anything is expanded, so a short text cannot make the reader build a long list.
pub const MAX_ENTRIES: u64 = 4_000_000;

/// What a compact text does not say, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactError {
    /// Where: `previous assignment "sticky", member "C0"` or `subscription 2`.
    pub place: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CompactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

impl std::error::Error for CompactError {}

/// Numbers in run notation: `0-99,200-210/2,405,0-7x50+1000`. An item is one number `a`, a run
/// `a-b` (every number from a to b) or `a-b/s` (every s-th), and may be repeated: `0-7x50+1000` is
/// `0-7`, `1000-1007`, … fifty copies, each 1,000 further (range hands out such blocks, one per
/// topic). A run of step 1 is written once it has two numbers, of another step once it has three.
pub fn write_runs(numbers: &[u64]) -> String {
    let runs = runs(numbers);
    let mut out = String::new();
    let mut i = 0;
    while let Some(run) = runs.get(i) {
        if !out.is_empty() {
            out.push(',');
        }
        let same_shape = |other: &Run| other.step == run.step && other.count == run.count;
        let stride = runs
            .get(i + 1)
            .filter(|next| run.count >= 2 && same_shape(next))
            .and_then(|next| next.first.checked_sub(run.first))
            .filter(|&stride| stride > 0);
        let copies = match stride {
            Some(stride) => {
                1 + runs[i..]
                    .windows(2)
                    .take_while(|w| same_shape(&w[1]) && w[0].first.checked_add(stride) == Some(w[1].first))
                    .count()
            }
            _ => 1,
        };
        let last = run.first + run.step * (run.count - 1);
        let _ = match (run.count, run.step) {
            (1, _) => write!(out, "{}", run.first),
            (_, 1) => write!(out, "{}-{last}", run.first),
            (_, step) => write!(out, "{}-{last}/{step}", run.first),
        };
        if let (true, Some(stride)) = (copies >= 2, stride) {
            let _ = write!(out, "x{copies}+{stride}");
        }
        i += copies;
    }
    out
}

/// Numbers in arithmetic runs: `first`, `first + step`, … `count` of them.
#[derive(Clone, Copy)]
struct Run {
    first: u64,
    step: u64,
    count: u64,
}

/// `numbers` cut greedily into ascending runs (a run of step 1 from two numbers, of another step
/// from three; anything else one number at a time).
fn runs(numbers: &[u64]) -> Vec<Run> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&first) = numbers.get(i) {
        let step = numbers.get(i + 1).and_then(|&next| next.checked_sub(first)).filter(|&s| s > 0);
        let length = match step {
            Some(step) => 1 + numbers[i..].windows(2).take_while(|w| w[0].checked_add(step) == Some(w[1])).count(),
            None => 1,
        };
        let run = match step {
            Some(step) if length >= 3 || (step == 1 && length >= 2) => Run { first, step, count: length as u64 },
            _ => Run { first, step: 1, count: 1 },
        };
        out.push(run);
        i += run.count as usize;
    }
    out
}

/// The numbers a run text holds, each below `bound`; `budget` is how many more numbers may be
/// expanded, and is spent. Empty text: no numbers.
pub fn read_runs(text: &str, bound: u64, budget: &mut u64) -> Result<Vec<u64>, String> {
    let mut out = Vec::new();
    if text.is_empty() {
        return Ok(out);
    }
    for item in text.split(',') {
        let not_a_run = || format!("{item:?} is not a run (a, a-b, a-b/step, each optionally xcopies+stride)");
        let (run, copies, stride) = match item.split_once('x') {
            Some((run, repeat)) => {
                let (copies, stride) = repeat.split_once('+').ok_or_else(not_a_run)?;
                (run, number(copies)?, number(stride)?)
            }
            None => (item, 1, 0),
        };
        let (range, step) = match run.split_once('/') {
            Some((range, step)) => (range, number(step)?),
            None => (run, 1),
        };
        let (first, last) = match range.split_once('-') {
            Some((first, last)) => (number(first)?, number(last)?),
            None if step == 1 => (number(range)?, number(range)?),
            None => return Err(not_a_run()),
        };
        if step == 0 || last < first || (last - first) % step != 0 || copies == 0 || (copies > 1 && stride == 0) {
            return Err(not_a_run());
        }
        let count = (last - first) / step + 1;
        let end = (copies - 1).checked_mul(stride).and_then(|shift| last.checked_add(shift));
        if end.is_none_or(|end| end >= bound) {
            return Err(format!("{item:?} is out of range: there are {bound}"));
        }
        let total = count.checked_mul(copies);
        *budget = total
            .and_then(|total| budget.checked_sub(total))
            .ok_or_else(|| format!("more than {MAX_ENTRIES} partitions in all"))?;
        for copy in 0..copies {
            let start = first + copy * stride;
            out.extend((0..count).map(|k| start + k * step));
        }
    }
    Ok(out)
}

/// A decimal number of at most 19 digits (no sign, no spaces).
fn number(text: &str) -> Result<u64, String> {
    if text.is_empty() || text.len() > 19 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{text:?} is not a number"));
    }
    text.parse().map_err(|_| format!("{text:?} is not a number"))
}

/// Where each topic's partitions start among the flat indices of a previous assignment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// `[topic, span]` in order: the topic's partitions `0..span` take the next `span` indices.
    pub spans: Vec<(String, u32)>,
}

impl Layout {
    /// The layout that holds every partition `assignments` name: the scenario's topics in order,
    /// each spanning its partition count (or more, for a partition numbered beyond it), then the
    /// topics only the assignments name (deleted ones), in the order they are first met.
    pub fn of<'a>(topics: &[TopicSpec], assignments: impl IntoIterator<Item = &'a Owned>) -> Layout {
        let mut spans: Vec<(String, u32)> = topics.iter().map(|t| (t.name.clone(), t.partitions)).collect();
        let mut position: HashMap<String, usize> =
            topics.iter().enumerate().map(|(i, t)| (t.name.clone(), i)).collect();
        for owned in assignments {
            for (topic, partition) in owned.values().flatten() {
                let at = match position.get(topic) {
                    Some(&at) => at,
                    None => {
                        spans.push((topic.clone(), 0));
                        position.insert(topic.clone(), spans.len() - 1);
                        spans.len() - 1
                    }
                };
                spans[at].1 = spans[at].1.max(partition.saturating_add(1));
            }
        }
        Layout { spans }
    }

    /// The order of topics in which `owned`'s lists are shortest as runs: the order they first
    /// appear in, member by member (Kafka's assignors hand out topics in one order to everyone:
    /// sorted for roundrobin and sticky, the coordinator's map order for range), then the rest.
    /// Given as positions in this layout.
    pub fn order_of(&self, owned: &Owned) -> Vec<u64> {
        let position: HashMap<&str, usize> = self.spans.iter().enumerate().map(|(i, (t, _))| (t.as_str(), i)).collect();
        let mut placed = vec![false; self.spans.len()];
        let mut order = Vec::with_capacity(self.spans.len());
        for (topic, _) in owned.values().flatten() {
            if let Some(&at) = position.get(topic.as_str()) {
                if !std::mem::replace(&mut placed[at], true) {
                    order.push(at as u64);
                }
            }
        }
        order.extend((0..self.spans.len()).filter(|&at| !placed[at]).map(|at| at as u64));
        order
    }

    /// This layout with its topics in `order` (positions in it, each once).
    pub fn reordered(&self, order: &[u64]) -> Result<Layout, String> {
        if order.len() != self.spans.len() {
            return Err(format!("the order names {} topics, the layout has {}", order.len(), self.spans.len()));
        }
        let mut placed = vec![false; self.spans.len()];
        let mut spans = Vec::with_capacity(order.len());
        for &at in order {
            let at = at as usize;
            if std::mem::replace(&mut placed[at], true) {
                return Err(format!("the order names topic {} twice", at));
            }
            spans.push(self.spans[at].clone());
        }
        Ok(Layout { spans })
    }

    /// Each topic's first flat index, and the total.
    fn offsets(&self) -> Result<(HashMap<&str, u64>, u64), String> {
        let mut offsets = HashMap::with_capacity(self.spans.len());
        let mut next = 0u64;
        for (topic, span) in &self.spans {
            if offsets.insert(topic.as_str(), next).is_some() {
                return Err(format!("the layout names topic {topic:?} twice"));
            }
            next += u64::from(*span);
        }
        Ok((offsets, next))
    }

    /// Every member's list of `owned` as runs, or `None` if one names a partition the layout
    /// does not hold.
    pub fn write_lists(&self, owned: &Owned) -> Option<BTreeMap<String, String>> {
        let (offsets, _) = self.offsets().ok()?;
        let spans: HashMap<&str, (u64, u32)> =
            self.spans.iter().filter_map(|(t, s)| Some((t.as_str(), (*offsets.get(t.as_str())?, *s)))).collect();
        let mut out = BTreeMap::new();
        for (member, list) in owned {
            let mut indices = Vec::with_capacity(list.len());
            for (topic, partition) in list {
                let (offset, span) = *spans.get(topic.as_str())?;
                if *partition >= span {
                    return None;
                }
                indices.push(offset + u64::from(*partition));
            }
            out.insert(member.clone(), write_runs(&indices));
        }
        Some(out)
    }

    /// The partitions a run text names, in its order; `budget` as for [`read_runs`].
    pub fn read_list(&self, text: &str, budget: &mut u64) -> Result<Vec<(String, u32)>, String> {
        let (_, total) = self.offsets()?;
        let indices = read_runs(text, total, budget)?;
        // Flat index to (topic, partition): the topic whose span holds it.
        let starts: Vec<u64> = self
            .spans
            .iter()
            .scan(0u64, |next, (_, span)| {
                let start = *next;
                *next += u64::from(*span);
                Some(start)
            })
            .collect();
        Ok(indices
            .into_iter()
            .filter_map(|index| {
                let at = starts.partition_point(|&start| start <= index).checked_sub(1)?;
                // Skip empty spans that start at the same index.
                let (topic, _) = self.spans.get(at)?;
                Some((topic.clone(), u32::try_from(index - starts[at]).ok()?))
            })
            .collect())
    }
}

/// Consumers that subscribe to one topic list, written once (format 2).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedSubscription {
    /// The topic list, in the consumers' order.
    pub topics: Vec<String>,
    /// The consumers' positions in JoinGroup order, as runs (`0-1999`, `0-496/4`).
    pub consumers: String,
}

/// The topic lists that two or more consumers share, each once, in the order first met; the
/// consumers with their lists taken out.
pub fn share_subscriptions(consumers: &[ConsumerSpec]) -> (Vec<ConsumerSpec>, Vec<SharedSubscription>) {
    let mut positions: Vec<(&[String], Vec<u64>)> = Vec::new();
    let mut index: HashMap<&[String], usize> = HashMap::new();
    for (i, consumer) in consumers.iter().enumerate() {
        if consumer.topics.is_empty() {
            continue;
        }
        let at = *index.entry(consumer.topics.as_slice()).or_insert_with(|| {
            positions.push((consumer.topics.as_slice(), Vec::new()));
            positions.len() - 1
        });
        positions[at].1.push(i as u64);
    }
    let shared: Vec<(&[String], Vec<u64>)> = positions.into_iter().filter(|(_, at)| at.len() >= 2).collect();
    let mut out: Vec<ConsumerSpec> = consumers.to_vec();
    for (_, at) in &shared {
        for &i in at {
            out[i as usize].topics = Vec::new();
        }
    }
    let shared = shared
        .into_iter()
        .map(|(topics, at)| SharedSubscription { topics: topics.to_vec(), consumers: write_runs(&at) })
        .collect();
    (out, shared)
}

/// `consumers` with the shared subscriptions given back to the consumers they name. A consumer
/// named by one must list no topics of its own, and be named once.
pub fn apply_subscriptions(consumers: &mut [ConsumerSpec], shared: &[SharedSubscription]) -> Result<(), CompactError> {
    let mut taken = vec![false; consumers.len()];
    for (n, subscription) in shared.iter().enumerate() {
        let place = || format!("subscription {}", n + 1);
        let error = |message: String| CompactError { place: place(), message };
        let mut budget = consumers.len() as u64;
        let positions = read_runs(&subscription.consumers, consumers.len() as u64, &mut budget).map_err(error)?;
        for position in positions {
            let i = position as usize;
            let consumer = &mut consumers[i];
            if taken[i] || !consumer.topics.is_empty() {
                return Err(error(format!("consumer {} ({:?}) already has its topics", i + 1, consumer.id)));
            }
            taken[i] = true;
            consumer.topics = subscription.topics.clone();
        }
    }
    Ok(())
}

/// How many topic names the long form writes: subscriptions and previous assignments' entries.
pub fn long_form_names<'a>(consumers: &[ConsumerSpec], assignments: impl IntoIterator<Item = &'a Owned>) -> usize {
    let subscribed: usize = consumers.iter().map(|c| c.topics.len()).sum();
    let owned: usize = assignments.into_iter().map(|owned| owned.values().map(Vec::len).sum::<usize>()).sum();
    subscribed + owned
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, bound: u64) -> Result<Vec<u64>, String> {
        read_runs(text, bound, &mut MAX_ENTRIES.clone())
    }

    #[test]
    fn runs_are_written_the_short_way() {
        assert_eq!(write_runs(&[]), "");
        assert_eq!(write_runs(&[7]), "7");
        assert_eq!(write_runs(&[0, 1, 2, 3, 10, 11]), "0-3,10-11");
        assert_eq!(write_runs(&[5, 15, 25, 35]), "5-35/10");
        // A step run needs three numbers; two are written one by one.
        assert_eq!(write_runs(&[0, 5, 6, 7]), "0,5-7");
        assert_eq!(write_runs(&[9, 3, 3, 4]), "9,3,3-4");
        assert_eq!(write_runs(&[u64::MAX - 1, u64::MAX]), format!("{}-{}", u64::MAX - 1, u64::MAX));
        // Blocks of one shape at a constant stride: range's partitions of consecutive topics.
        assert_eq!(write_runs(&[0, 1, 2, 10, 11, 12, 20, 21, 22, 5]), "0-2x3+10,5");
        assert_eq!(write_runs(&[0, 2, 4, 1, 3, 5, 2, 4, 6]), "0-4/2x3+1");
        assert_eq!(write_runs(&[0, 1, 2, 10, 11, 20, 21, 22]), "0-2,10-11,20-22");
        assert_eq!(write_runs(&[10, 11, 0, 1]), "10-11,0-1");
    }

    #[test]
    fn runs_read_back_and_refuse_what_they_cannot_hold() {
        for numbers in [
            vec![],
            vec![3],
            vec![0, 1, 2, 9, 19, 29, 30],
            vec![4, 2, 2, 0, 1000, 2000, 3000],
            vec![0, 1, 2, 10, 11, 12, 20, 21, 22, 5, 7, 7, 7],
        ] {
            assert_eq!(read(&write_runs(&numbers), 10_000), Ok(numbers));
        }
        for bad in ["3-1", "0-9/2", "0-8/0", "5/2", "0-1x0+5", "0-1x2+0", "0-1x2"] {
            let message = format!("{bad:?} is not a run (a, a-b, a-b/step, each optionally xcopies+stride)");
            assert_eq!(read(bad, 100), Err(message));
        }
        assert_eq!(read("0-1x3+4", 10), Ok(vec![0, 1, 4, 5, 8, 9]));
        assert_eq!(read("0-1x3+5", 10).unwrap_err(), r#""0-1x3+5" is out of range: there are 10"#);
        let far = u64::MAX >> 1;
        assert_eq!(
            read(&format!("0-1x3+{far}"), u64::MAX),
            Err(format!("\"0-1x3+{far}\" is out of range: there are {}", u64::MAX))
        );
        assert_eq!(read("10", 10).unwrap_err(), r#""10" is out of range: there are 10"#);
        assert_eq!(read("1,,2", 10).unwrap_err(), r#""" is not a number"#);
        assert_eq!(read("-1", 10).unwrap_err(), r#""" is not a number"#);
        assert_eq!(read("99999999999999999999", u64::MAX).unwrap_err(), r#""99999999999999999999" is not a number"#);
        // The budget is checked before a run is expanded.
        let mut budget = 5;
        assert_eq!(read_runs("0-3", 10, &mut budget), Ok(vec![0, 1, 2, 3]));
        assert_eq!(read_runs("0-1", 10, &mut budget), Err("more than 4000000 partitions in all".into()));
        let started = std::time::Instant::now();
        assert!(read(&format!("0-{}", u64::MAX - 1), u64::MAX).is_err());
        assert!(read(&format!("0-{}x{}+1", u64::MAX >> 33, u64::MAX >> 33), u64::MAX).is_err());
        assert!(started.elapsed() < std::time::Duration::from_millis(100));
    }

    #[test]
    fn a_layout_maps_partitions_to_flat_indices_and_back() {
        let topics = [TopicSpec::new("a", 3), TopicSpec::new("empty", 0), TopicSpec::new("b", 2)];
        let owned: Owned = [
            ("C0".to_string(), vec![("a".to_string(), 0), ("b".to_string(), 0), ("gone".to_string(), 4)]),
            ("C1".to_string(), vec![("b".to_string(), 5), ("a".to_string(), 2), ("a".to_string(), 1)]),
        ]
        .into();
        let layout = Layout::of(&topics, [&owned]);
        let spans: Vec<(&str, u32)> = layout.spans.iter().map(|(t, s)| (t.as_str(), *s)).collect();
        assert_eq!(spans, [("a", 3), ("empty", 0), ("b", 6), ("gone", 5)]);
        let lists = layout.write_lists(&owned).unwrap();
        assert_eq!(lists["C0"], "0,3,13");
        assert_eq!(lists["C1"], "8,2,1");
        for (member, list) in &owned {
            assert_eq!(&layout.read_list(&lists[member], &mut MAX_ENTRIES.clone()).unwrap(), list);
        }
        // The same lists, with the topics in the order the lists name them.
        let order = layout.order_of(&owned);
        assert_eq!(order, [0, 2, 3, 1]);
        let ordered = layout.reordered(&order).unwrap();
        assert_eq!(ordered.write_lists(&owned).unwrap()["C1"], "8,2,1");
        assert_eq!(ordered.write_lists(&owned).unwrap()["C0"], "0,3,13");
        assert_eq!(layout.reordered(&[0, 0, 1, 2]), Err("the order names topic 0 twice".into()));
        assert_eq!(layout.reordered(&[0]), Err("the order names 1 topics, the layout has 4".into()));
        let outside = |topic: &str, partition| Owned::from([("C0".to_string(), vec![(topic.to_string(), partition)])]);
        assert_eq!(layout.write_lists(&outside("nowhere", 0)), None);
        assert_eq!(layout.write_lists(&outside("a", 3)), None);
    }

    /// A xorshift generator: the same "random" lists on every run.
    fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |below| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        }
    }

    /// Owned lists of any shape come back from their runs exactly, in their order: runs, strides,
    /// blocks, a partition moved to the end, numbers out of order, a topic the scenario no longer
    /// has, a partition numbered beyond its topic's count.
    #[test]
    fn owned_lists_come_back_from_their_runs() {
        let topics: Vec<TopicSpec> = (0..6).map(|t| TopicSpec::new(format!("t{t}"), 50 + t * 7)).collect();
        let mut random = xorshift(0x006f_776e_6564);
        for case in 0..200 {
            let members = 1 + random(12);
            let owned: Owned = (0..members)
                .map(|m| {
                    let mut list: Vec<(String, u32)> = Vec::new();
                    for _ in 0..random(6) {
                        let topic = if random(20) == 0 { "deleted".to_string() } else { format!("t{}", random(6)) };
                        let (first, step, count) = (random(60) as u32, 1 + random(4) as u32, 1 + random(30) as u32);
                        list.extend((0..count).map(|k| (topic.clone(), first + k * step)));
                    }
                    if list.len() > 2 && random(3) == 0 {
                        // Sticky keeps what a member owned and appends what it is given.
                        let moved = list.remove(random(list.len() as u64) as usize);
                        list.push(moved);
                    }
                    (format!("C{m}"), list)
                })
                .collect();
            let layout = Layout::of(&topics, [&owned]);
            let order = layout.order_of(&owned);
            let ordered = layout.reordered(&order).unwrap();
            let lists = ordered.write_lists(&owned).unwrap_or_else(|| panic!("case {case}: not written"));
            for (member, list) in &owned {
                let read = ordered.read_list(&lists[member], &mut MAX_ENTRIES.clone());
                assert_eq!(read.as_ref(), Ok(list), "case {case}, {member}: {:?}", lists[member]);
            }
        }
    }

    /// Kafka's large test as sticky leaves it after a consumer joins (500 topics × 2,000
    /// partitions, 2,000 consumers on every topic; sticky deals a fresh group's sorted partitions
    /// to the members in turn, and the newcomer takes one from each of 499 of them): a million
    /// owned partitions are a few tens of kilobytes of runs, and read back the same.
    #[test]
    fn a_million_sticky_partitions_are_kilobytes_of_runs() {
        let (topics, partitions, members) = (500u64, 2_000u64, 2_000u64);
        let specs: Vec<TopicSpec> =
            (0..topics).map(|t| TopicSpec::new(format!("topic{t}"), partitions as u32)).collect();
        let name = |flat: u64| (format!("topic{}", flat / partitions), (flat % partitions) as u32);
        let mut owned: Owned = (0..members)
            .map(|m| (format!("consumer{m}"), (0..topics).map(|t| name(t * partitions + m)).collect()))
            .collect();
        let newcomer: Vec<(String, u32)> = (0..499u64)
            .map(|m| owned.get_mut(&format!("consumer{m}")).and_then(Vec::pop).unwrap_or_default())
            .collect();
        owned.insert("consumer2000".into(), newcomer);
        assert_eq!(owned.values().map(Vec::len).sum::<usize>(), 1_000_000);

        let layout = Layout::of(&specs, [&owned]);
        let started = std::time::Instant::now();
        let lists = layout.write_lists(&owned).unwrap();
        let bytes: usize = lists.iter().map(|(member, runs)| member.len() + runs.len() + 6).sum();
        assert_eq!(lists["consumer7"], "7-996007/2000");
        assert_eq!(lists["consumer1000"], "1000-999000/2000");
        assert_eq!(lists["consumer2000"], "998000-998498");
        assert!(bytes < 80_000, "{bytes} bytes");
        eprintln!("a million sticky partitions: {bytes} bytes of runs");
        let mut budget = MAX_ENTRIES;
        for (member, list) in &owned {
            assert_eq!(&layout.read_list(&lists[member], &mut budget).unwrap(), list, "{member}");
        }
        assert_eq!(budget, MAX_ENTRIES - 1_000_000);
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
    }

    /// A compact scenario altered by hand or cut short is refused with where: the strategy, the
    /// member and the text, never a panic, never more than the budget expanded.
    #[test]
    fn a_damaged_compact_list_is_refused_with_where_it_is() {
        let file = |sticky: &str, order: &str| {
            format!(
                r#"{{"version":2,"topics":[{{"name":"a","partitions":10}},{{"name":"b","partitions":10}}],
                "consumers":[{{"id":"C0","topics":["a","b"]}},{{"id":"C1","topics":["a","b"]}}],
                "previous":{{"generation":3,"layout":[["a",10],["b",10]],"orders":{{"sticky":"{order}"}},
                "assignments":{{"range":{{"C0":"0-9","C1":"10-19"}},"sticky":{{"C0":"0-4,15-19","C1":{sticky}}}}}}}}}"#
            )
        };
        let read = |sticky: &str, order: &str| crate::parse_scenario(&file(sticky, order)).map_err(|e| e.to_string());
        let good = read(r#""5-14""#, "1,0").unwrap_or_else(|e| panic!("{e}"));
        let sticky = &good.previous.as_ref().unwrap().assignments["sticky"];
        assert_eq!(sticky["C0"][..2], [("b".to_string(), 0), ("b".to_string(), 1)]);
        assert_eq!(sticky["C1"].len(), 10);
        for (runs, order, message) in [
            (r#""5-14/2""#, "1,0", r#"previous assignment "sticky", member "C1": "5-14/2" is not a run"#),
            (r#""5-20""#, "1,0", r#"previous assignment "sticky", member "C1": "5-20" is out of range: there are 20"#),
            (r#""5-""#, "1,0", r#"previous assignment "sticky", member "C1": "" is not a number"#),
            (
                r#""0-9x400001+20""#,
                "1,0",
                r#"previous assignment "sticky", member "C1": "0-9x400001+20" is out of range"#,
            ),
            (r#""5-14""#, "1,1", r#"previous assignment "sticky", order: the order names topic 1 twice"#),
            (r#""5-14""#, "2", r#"previous assignment "sticky", order: "2" is out of range: there are 2"#),
        ] {
            let error = read(runs, order).unwrap_err();
            assert!(error.contains(message), "{runs} {order}: {error}");
        }
        // Cut short anywhere, or any byte of a list changed: an error or a scenario, never a panic.
        let text = file(r#""5-14""#, "1,0");
        let lists = text.find(r#""0-4,15-19""#).unwrap();
        for cut in 0..text.len() {
            let _ = crate::parse_scenario(&text[..cut]);
        }
        for at in lists..lists + 20 {
            for byte in b"0123456789-,/x+\"a ".iter() {
                let mut bytes = text.clone().into_bytes();
                bytes[at] = *byte;
                let _ = crate::parse_scenario(&String::from_utf8_lossy(&bytes));
            }
        }
    }

    #[test]
    fn shared_subscriptions_are_written_once_and_given_back() {
        let all = ["t0", "t1", "t2"];
        let mut consumers: Vec<ConsumerSpec> = (0..8)
            .map(|i| ConsumerSpec::new(format!("C{i}"), if i % 4 == 0 { &all[..1] } else { &all[1..] }))
            .collect();
        consumers.push(ConsumerSpec::new("alone", &["t9"]));
        consumers.push(ConsumerSpec::new("nothing", &[]));
        let (written, shared) = share_subscriptions(&consumers);
        assert_eq!(
            shared,
            [
                SharedSubscription { topics: vec!["t0".into()], consumers: "0,4".into() },
                SharedSubscription { topics: vec!["t1".into(), "t2".into()], consumers: "1-3x2+4".into() },
            ]
        );
        assert_eq!(written[8].topics, ["t9"]);
        let mut read = written.clone();
        apply_subscriptions(&mut read, &shared).unwrap();
        assert_eq!(read, consumers);

        let twice = [shared[0].clone(), SharedSubscription { topics: vec![], consumers: "4".into() }];
        let error = apply_subscriptions(&mut written.clone(), &twice).unwrap_err();
        assert_eq!(error.to_string(), r#"subscription 2: consumer 5 ("C4") already has its topics"#);
        let past = [SharedSubscription { topics: vec![], consumers: "10".into() }];
        let error = apply_subscriptions(&mut written.clone(), &past).unwrap_err();
        assert_eq!(error.to_string(), r#"subscription 1: "10" is out of range: there are 10"#);
    }
}

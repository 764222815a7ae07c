//! The scenario in a binary form, for the playground's page and its workers (postcard, read by
//! position): what crosses between them, so that the page links no reader or writer of the
//! scenario file's JSON (issue 9: a smaller page).
//!
//! It is the file's content in the form [`Scenario::form`] chooses: a large group keeps format 2's
//! compact forms (consumers sharing a topic list name it once, owned partitions are runs of a
//! layout), so 2,000 consumers on 500 topics cross as a few hundred kilobytes, not a million names;
//! a previous assignment of at most [`PAIRS_UP_TO`] partitions crosses as pairs all the same.
//! Unlike the file, every field is written, none left out at its default: a format without field
//! names cannot tell a field left out. It reads back to the very scenario written (its `version`
//! included), and refuses what the file's reader refuses in the compact forms (a run past the
//! layout, a consumer named twice). Not a file format: the page and its workers are one build.
//!
//! Used as `#[serde(with = "scenario::packed")]` on a field holding a [`Scenario`] (or an `Rc` or
//! `Box` of one).

use std::borrow::{Borrow, Cow};
use std::collections::BTreeMap;

use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::compact::{self, SharedSubscription};
use crate::format::{MemberList, Owned, PreviousFile, ReplicaLayout, StrategyLists};
use crate::{ConsumerSpec, Form, Scenario, TopicSpec, View};

/// Writes `scenario` in the binary form.
pub fn serialize<T: Borrow<Scenario>, S: Serializer>(scenario: &T, serializer: S) -> Result<S::Ok, S::Error> {
    let scenario = scenario.borrow();
    let compact = scenario.form() == Form::Compact;
    let (consumers, subscriptions) = if compact {
        let (consumers, shared) = compact::share_subscriptions(&scenario.consumers);
        (Cow::Owned(consumers), shared)
    } else {
        (Cow::Borrowed(scenario.consumers.as_slice()), Vec::new())
    };
    // A small previous assignment crosses as pairs, as an answer's does ([`previous`]): laying it
    // out as runs took longer than the runs save (issue 9: an edit's job, written on the page's
    // thread and read in each worker, at 1,000 partitions).
    let runs = |p: &crate::Previous| compact && p.entries() > PAIRS_UP_TO;
    let previous = scenario.previous.as_ref().map(|p| PreviousFile::new(p, &scenario.topics, runs(p)));
    let previous = previous.as_ref().map(PackedPrevious::of).transpose().map_err(S::Error::custom)?;
    Packed {
        version: scenario.version,
        title: Cow::Borrowed(&scenario.title),
        notes: Cow::Borrowed(&scenario.notes),
        protocol: Cow::Borrowed(&scenario.protocol),
        remote_assignor: Cow::Borrowed(&scenario.remote_assignor),
        topics: scenario.topics.iter().map(PackedTopic::of).collect(),
        consumers: consumers.iter().map(PackedConsumer::of).collect(),
        subscriptions,
        previous,
        view: (Cow::Borrowed(&scenario.view.strategies), scenario.view.diff, Cow::Borrowed(&scenario.view.weight_unit)),
    }
    .serialize(serializer)
}

/// The most owned partitions, over every strategy, that a compact scenario's previous assignment
/// crosses as pairs rather than runs: the playground's `work::INLINE_ENTRIES`, the most that crosses
/// the worker boundary at all.
pub const PAIRS_UP_TO: usize = 20_000;

/// Reads a scenario written by [`serialize`].
pub fn deserialize<'de, T: From<Scenario>, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    let packed = Packed::deserialize(deserializer)?;
    let mut consumers: Vec<ConsumerSpec> = packed.consumers.into_iter().map(PackedConsumer::into_spec).collect();
    compact::apply_subscriptions(&mut consumers, &packed.subscriptions).map_err(D::Error::custom)?;
    let previous = packed.previous.map(|p| p.into_file().into_previous()).transpose().map_err(D::Error::custom)?;
    let (strategies, diff, weight_unit) = packed.view;
    Ok(T::from(Scenario {
        version: packed.version,
        title: packed.title.into_owned(),
        notes: packed.notes.into_owned(),
        protocol: packed.protocol.into_owned(),
        remote_assignor: packed.remote_assignor.into_owned(),
        topics: packed.topics.into_iter().map(PackedTopic::into_spec).collect(),
        consumers,
        previous,
        view: View { strategies: strategies.into_owned(), diff, weight_unit: weight_unit.into_owned() },
    }))
}

/// The scenario's fields in order (a [`Scenario`] borrowed when written, owned when read).
#[derive(Serialize, Deserialize)]
struct Packed<'a> {
    version: u32,
    title: Cow<'a, str>,
    notes: Cow<'a, str>,
    protocol: Cow<'a, Option<String>>,
    remote_assignor: Cow<'a, Option<String>>,
    topics: Vec<PackedTopic<'a>>,
    consumers: Vec<PackedConsumer<'a>>,
    /// Format 2's shared topic lists; their consumers' own lists are empty.
    subscriptions: Vec<SharedSubscription>,
    previous: Option<PackedPrevious<'a>>,
    /// [`View`]: strategies, diff, weight unit.
    view: (Cow<'a, [String]>, bool, Cow<'a, str>),
}

/// A [`TopicSpec`]'s fields in order.
#[derive(Serialize, Deserialize)]
struct PackedTopic<'a> {
    name: Cow<'a, str>,
    partitions: u32,
    id: Cow<'a, Option<String>>,
    replicas: Option<(u32, Cow<'a, [Option<String>]>)>,
    rack_overrides: Cow<'a, BTreeMap<u32, Vec<Option<String>>>>,
    weight: Option<u64>,
    partition_weights: Cow<'a, BTreeMap<u32, u64>>,
}

impl<'a> PackedTopic<'a> {
    fn of(topic: &'a TopicSpec) -> PackedTopic<'a> {
        PackedTopic {
            name: Cow::Borrowed(&topic.name),
            partitions: topic.partitions,
            id: Cow::Borrowed(&topic.id),
            replicas: topic.replicas.as_ref().map(|r| (r.factor, Cow::Borrowed(r.racks.as_slice()))),
            rack_overrides: Cow::Borrowed(&topic.rack_overrides),
            weight: topic.weight,
            partition_weights: Cow::Borrowed(&topic.partition_weights),
        }
    }

    fn into_spec(self) -> TopicSpec {
        TopicSpec {
            name: self.name.into_owned(),
            partitions: self.partitions,
            id: self.id.into_owned(),
            replicas: self.replicas.map(|(factor, racks)| ReplicaLayout { factor, racks: racks.into_owned() }),
            rack_overrides: self.rack_overrides.into_owned(),
            weight: self.weight,
            partition_weights: self.partition_weights.into_owned(),
        }
    }
}

/// A [`ConsumerSpec`]'s fields in order.
#[derive(Serialize, Deserialize)]
struct PackedConsumer<'a> {
    id: Cow<'a, str>,
    instance_id: Cow<'a, Option<String>>,
    rack: Cow<'a, Option<String>>,
    topics: Cow<'a, [String]>,
    patterns: Cow<'a, [String]>,
    strategies: Cow<'a, [String]>,
}

impl<'a> PackedConsumer<'a> {
    fn of(consumer: &'a ConsumerSpec) -> PackedConsumer<'a> {
        PackedConsumer {
            id: Cow::Borrowed(&consumer.id),
            instance_id: Cow::Borrowed(&consumer.instance_id),
            rack: Cow::Borrowed(&consumer.rack),
            topics: Cow::Borrowed(&consumer.topics),
            patterns: Cow::Borrowed(&consumer.patterns),
            strategies: Cow::Borrowed(&consumer.strategies),
        }
    }

    fn into_spec(self) -> ConsumerSpec {
        ConsumerSpec {
            id: self.id.into_owned(),
            instance_id: self.instance_id.into_owned(),
            rack: self.rack.into_owned(),
            topics: self.topics.into_owned(),
            patterns: self.patterns.into_owned(),
            strategies: self.strategies.into_owned(),
        }
    }
}

/// The previous assignment as the file writes it in the scenario's form, its fields in order.
#[derive(Serialize, Deserialize)]
struct PackedPrevious<'a> {
    generation: i32,
    generations: Cow<'a, BTreeMap<String, Option<i32>>>,
    layout: Cow<'a, [(String, u32)]>,
    orders: Cow<'a, BTreeMap<String, String>>,
    assignments: Vec<(Cow<'a, str>, PackedLists<'a>)>,
    deleted_topic_ids: Cow<'a, BTreeMap<String, String>>,
}

/// One strategy's lists: in full, or as runs of the layout.
#[derive(Serialize, Deserialize)]
enum PackedLists<'a> {
    Pairs(Cow<'a, Owned>),
    Runs(Cow<'a, BTreeMap<String, String>>),
}

impl<'a> PackedPrevious<'a> {
    fn of(file: &'a PreviousFile) -> Result<PackedPrevious<'a>, &'static str> {
        let assignments = file
            .assignments
            .iter()
            .map(|(strategy, lists)| {
                let lists = match lists {
                    StrategyLists::Long(owned) => PackedLists::Pairs(Cow::Borrowed(&**owned)),
                    StrategyLists::Runs(runs) => PackedLists::Runs(Cow::Borrowed(runs)),
                    // `PreviousFile::new` writes no list as read.
                    StrategyLists::Read(_) => return Err("a previous assignment as read cannot be written"),
                };
                Ok((Cow::Borrowed(strategy.as_str()), lists))
            })
            .collect::<Result<_, _>>()?;
        Ok(PackedPrevious {
            generation: file.generation,
            generations: Cow::Borrowed(&file.generations),
            layout: Cow::Borrowed(&file.layout),
            orders: Cow::Borrowed(&file.orders),
            assignments,
            deleted_topic_ids: Cow::Borrowed(&file.deleted_topic_ids),
        })
    }

    fn into_file(self) -> PreviousFile {
        let assignments = self.assignments.into_iter().map(|(strategy, lists)| {
            let lists: Vec<(String, MemberList)> = match lists {
                PackedLists::Pairs(owned) => {
                    owned.into_owned().into_iter().map(|(m, pairs)| (m, MemberList::Pairs(pairs))).collect()
                }
                PackedLists::Runs(runs) => {
                    runs.into_owned().into_iter().map(|(m, r)| (m, MemberList::Runs(r))).collect()
                }
            };
            (strategy.into_owned(), StrategyLists::Read(lists))
        });
        PreviousFile {
            generation: self.generation,
            generations: self.generations.into_owned(),
            layout: self.layout.into_owned(),
            orders: self.orders.into_owned(),
            assignments: crate::format::map_of(assignments),
            deleted_topic_ids: self.deleted_topic_ids.into_owned(),
        }
    }
}

/// A previous assignment alone in the binary form, every list in full (no topics to lay runs
/// over): what a worker's answer carries of a small group (`#[serde(with = "scenario::packed::previous")]`).
pub mod previous {
    use serde::de::Error as _;
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::PackedPrevious;
    use crate::format::PreviousFile;
    use crate::Previous;

    /// Writes `previous` in the binary form.
    pub fn serialize<S: Serializer>(previous: &Option<Previous>, serializer: S) -> Result<S::Ok, S::Error> {
        let file = previous.as_ref().map(|p| PreviousFile::new(p, &[], false));
        file.as_ref().map(PackedPrevious::of).transpose().map_err(S::Error::custom)?.serialize(serializer)
    }

    /// Reads a previous assignment written by [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Previous>, D::Error> {
        let packed = Option::<PackedPrevious>::deserialize(deserializer)?;
        packed.map(|p| p.into_file().into_previous()).transpose().map_err(D::Error::custom)
    }
}

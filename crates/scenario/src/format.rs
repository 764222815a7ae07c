//! The external formats, as serde DTOs. Core types are never serialized directly: a derived
//! `Serialize` on them would silently become a compatibility promise.
//!
//! - [`Scenario`]: what the playground edits, exports and shares, and what `kap` reads. Versioned
//!   (`"version": 1`, or 2 for a large group written in the compact forms of [`crate::compact`]);
//!   fields at their default are left out when written.
//! - [`Snapshot`]: one group about to rebalance under one strategy, a JSON line of `kap batch`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use assignor::consumer_group::ServerAssignor;
use assignor::{Strategy, Uuid};
use serde::{Deserialize, Serialize};

use crate::compact;

/// The newest format version this build reads and writes. Every version it ever wrote must still
/// be read: 1, every field in full; 2, a large group's compact forms ([`crate::compact`]).
pub const VERSION: u32 = 2;

/// The format of the compact forms: a file using them says so, and earlier versions refuse it with
/// "written by a newer version" rather than a field they do not know.
pub const COMPACT_VERSION: u32 = 2;

/// A consumer group being modelled: topics, consumers, and the assignment each strategy gave it
/// last, which the next rebalance starts from.
///
/// Written in the long form of format 1 while small, in the compact forms of format 2 once the
/// long form would list more than [`crate::compact::COMPACT_ABOVE`] topic names
/// ([`Scenario::form`]); either form reads back to the same scenario.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ScenarioFile<'static>")]
pub struct Scenario {
    /// The format version it was read in (1 for one made here; files from before versions were
    /// written have none, and are format 1). Writing raises it to 2 when the compact forms are used.
    pub version: u32,
    /// A headline for the page and for embeds.
    pub title: String,
    /// A paragraph saying what the scenario shows.
    pub notes: String,
    /// `group.protocol` of the consumers: `classic` (absent) or `consumer` (KIP-848, [`CONSUMER_PROTOCOL`]).
    pub protocol: Option<String>,
    /// `group.remote.assignor` under the consumer protocol: `uniform` (absent: the broker's default) or
    /// `range`. Every consumer configures the same one.
    pub remote_assignor: Option<String>,
    /// The topics, in the order the page lists them.
    pub topics: Vec<TopicSpec>,
    /// The consumers, in JoinGroup order.
    pub consumers: Vec<ConsumerSpec>,
    /// The assignment before this rebalance, per strategy (absent: a fresh group).
    pub previous: Option<Previous>,
    /// What the page shows.
    pub view: View,
}

/// `protocol` for the consumer protocol (KIP-848, `group.protocol=consumer`).
pub const CONSUMER_PROTOCOL: &str = "consumer";
/// `protocol` for the classic protocol, the default.
pub const CLASSIC_PROTOCOL: &str = "classic";

impl Scenario {
    /// Whether the consumers run the consumer protocol (`group.protocol=consumer`).
    pub fn consumer_protocol(&self) -> bool {
        self.protocol.as_deref() == Some(CONSUMER_PROTOCOL)
    }

    /// The server-side assignor the coordinator runs under the consumer protocol: `remote_assignor`,
    /// else the broker's default `uniform`; `None` for a name that is neither (`validate` says so).
    pub fn server_assignor(&self) -> Option<ServerAssignor> {
        match &self.remote_assignor {
            None => Some(ServerAssignor::Uniform),
            Some(name) => name.parse().ok(),
        }
    }
}

/// How a scenario is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Format 1: every subscription and every owned partition in full, as `[topic, partition]`.
    Long,
    /// Format 2: shared subscriptions written once, owned partitions as runs of a layout.
    Compact,
}

impl Scenario {
    /// The form this scenario is written in: compact once the long form would list more than
    /// [`crate::compact::COMPACT_ABOVE`] topic names.
    pub fn form(&self) -> Form {
        let assignments = self.previous.iter().flat_map(|p| p.assignments.values().map(|a| &**a));
        if compact::long_form_names(&self.consumers, assignments) > compact::COMPACT_ABOVE {
            Form::Compact
        } else {
            Form::Long
        }
    }

    /// This scenario as written in `form` (what `serde` writes is [`Scenario::form`]'s).
    pub fn written(&self, form: Form) -> Written<'_> {
        let compact = form == Form::Compact;
        let (consumers, subscriptions) = if compact {
            let (consumers, shared) = compact::share_subscriptions(&self.consumers);
            (Cow::Owned(consumers), shared)
        } else {
            (Cow::Borrowed(self.consumers.as_slice()), Vec::new())
        };
        Written(ScenarioFile {
            version: if compact { self.version.max(COMPACT_VERSION) } else { self.version },
            title: Cow::Borrowed(&self.title),
            notes: Cow::Borrowed(&self.notes),
            protocol: Cow::Borrowed(&self.protocol),
            remote_assignor: Cow::Borrowed(&self.remote_assignor),
            topics: Cow::Borrowed(&self.topics),
            consumers,
            subscriptions,
            previous: self.previous.as_ref().map(|p| PreviousFile::new(p, &self.topics, compact)),
            view: Cow::Borrowed(&self.view),
        })
    }
}

/// A scenario as written in one [`Form`]: serialize it.
pub struct Written<'a>(ScenarioFile<'a>);

impl Written<'_> {
    /// The format version it says.
    pub fn version(&self) -> u32 {
        self.0.version
    }
}

impl Serialize for Written<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl Serialize for Scenario {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.written(self.form()).serialize(serializer)
    }
}

/// The scenario file as written, in either form.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile<'a> {
    #[serde(default = "version_one")]
    version: u32,
    #[serde(default, skip_serializing_if = "str::is_empty")]
    title: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "str::is_empty")]
    notes: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    protocol: Cow<'a, Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    remote_assignor: Cow<'a, Option<String>>,
    #[serde(default)]
    topics: Cow<'a, [TopicSpec]>,
    #[serde(default)]
    consumers: Cow<'a, [ConsumerSpec]>,
    /// Format 2: topic lists shared by several consumers, whose own `topics` are then empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    subscriptions: Vec<compact::SharedSubscription>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    previous: Option<PreviousFile>,
    #[serde(default, skip_serializing_if = "View::is_default")]
    view: Cow<'a, View>,
}

impl TryFrom<ScenarioFile<'static>> for Scenario {
    type Error = compact::CompactError;

    fn try_from(file: ScenarioFile<'static>) -> Result<Scenario, compact::CompactError> {
        let mut consumers = file.consumers.into_owned();
        compact::apply_subscriptions(&mut consumers, &file.subscriptions)?;
        Ok(Scenario {
            version: file.version,
            title: file.title.into_owned(),
            notes: file.notes.into_owned(),
            protocol: file.protocol.into_owned(),
            remote_assignor: file.remote_assignor.into_owned(),
            topics: file.topics.into_owned(),
            consumers,
            previous: file.previous.map(PreviousFile::into_previous).transpose()?,
            view: file.view.into_owned(),
        })
    }
}

/// [`Previous`] as written: in format 2 with a `layout`, and each member's list as runs of it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PreviousFile {
    pub(crate) generation: i32,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) generations: BTreeMap<String, Option<i32>>,
    /// Format 2: `[topic, span]` pairs, which the runs' flat indices count through.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) layout: Vec<(String, u32)>,
    /// Format 2: per strategy, the layout's topics in the order its runs count through them (runs
    /// of positions in `layout`); a strategy not named counts in the layout's order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_map")]
    pub(crate) orders: BTreeMap<String, String>,
    #[serde(deserialize_with = "unique_strategy_lists")]
    pub(crate) assignments: BTreeMap<String, StrategyLists>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_map")]
    pub(crate) deleted_topic_ids: BTreeMap<String, String>,
}

/// One strategy's previous assignment, member by member.
pub(crate) enum StrategyLists {
    /// As the scenario holds it, written in full.
    Long(Arc<Owned>),
    /// Written as runs.
    Runs(BTreeMap<String, String>),
    /// As read: each member's list in either form.
    Read(Vec<(String, MemberList)>),
}

/// A member's list as read: `[[topic, partition], ...]` or runs.
pub(crate) enum MemberList {
    Pairs(Vec<(String, u32)>),
    Runs(String),
}

impl PreviousFile {
    pub(crate) fn new(previous: &Previous, topics: &[TopicSpec], compact: bool) -> PreviousFile {
        let entries: usize =
            previous.assignments.values().map(|owned| owned.values().map(Vec::len).sum::<usize>()).sum();
        let layout = (compact && entries as u64 <= compact::MAX_ENTRIES)
            .then(|| compact::Layout::of(topics, previous.assignments.values().map(|a| &**a)));
        let mut orders = BTreeMap::new();
        let mut assignments = BTreeMap::new();
        for (strategy, owned) in &previous.assignments {
            let runs = layout.as_ref().and_then(|layout| {
                let order = layout.order_of(owned);
                let identity = order.iter().enumerate().all(|(i, &at)| at == i as u64);
                let runs = layout.reordered(&order).ok()?.write_lists(owned)?;
                if !identity {
                    orders.insert(strategy.clone(), compact::write_runs(&order));
                }
                Some(runs)
            });
            let lists = runs.map_or_else(|| StrategyLists::Long(Arc::clone(owned)), StrategyLists::Runs);
            assignments.insert(strategy.clone(), lists);
        }
        PreviousFile {
            generation: previous.generation,
            generations: previous.generations.clone(),
            layout: layout.map(|l| l.spans).unwrap_or_default(),
            orders,
            assignments,
            deleted_topic_ids: previous.deleted_topic_ids.clone(),
        }
    }

    pub(crate) fn into_previous(self) -> Result<Previous, compact::CompactError> {
        let layout = compact::Layout { spans: self.layout };
        let mut budget = compact::MAX_ENTRIES;
        let mut assignments = BTreeMap::new();
        if let Some(strategy) = self.orders.keys().find(|s| !self.assignments.contains_key(*s)) {
            let place = format!("previous assignment {strategy:?}");
            return Err(compact::CompactError { place, message: "an order for a strategy with no assignment".into() });
        }
        for (strategy, lists) in self.assignments {
            let layout = match self.orders.get(&strategy) {
                None => layout.clone(),
                Some(order) => {
                    let topics = layout.spans.len() as u64;
                    compact::read_runs(order, topics, &mut topics.clone())
                        .and_then(|order| layout.reordered(&order))
                        .map_err(|message| compact::CompactError {
                            place: format!("previous assignment {strategy:?}, order"),
                            message,
                        })?
                }
            };
            let lists: Vec<(String, MemberList)> = match lists {
                StrategyLists::Long(owned) => {
                    Arc::unwrap_or_clone(owned).into_iter().map(|(m, pairs)| (m, MemberList::Pairs(pairs))).collect()
                }
                StrategyLists::Runs(runs) => runs.into_iter().map(|(m, r)| (m, MemberList::Runs(r))).collect(),
                StrategyLists::Read(lists) => lists,
            };
            let mut owned = Owned::new();
            for (member, list) in lists {
                let pairs = match list {
                    MemberList::Pairs(pairs) => pairs,
                    MemberList::Runs(runs) => {
                        layout.read_list(&runs, &mut budget).map_err(|message| compact::CompactError {
                            place: format!("previous assignment {strategy:?}, member {member:?}"),
                            message,
                        })?
                    }
                };
                // Member ids differ: `Entries` refused a key written twice (no sort: `map_of`).
                owned.insert(member, pairs);
            }
            assignments.insert(strategy, Arc::new(owned));
        }
        Ok(Previous {
            generation: self.generation,
            generations: self.generations,
            assignments,
            deleted_topic_ids: self.deleted_topic_ids,
        })
    }
}

impl Serialize for StrategyLists {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            StrategyLists::Long(owned) => owned.serialize(serializer),
            StrategyLists::Runs(runs) => runs.serialize(serializer),
            StrategyLists::Read(lists) => {
                let mut map = serializer.serialize_map(Some(lists.len()))?;
                for (member, list) in lists {
                    match list {
                        MemberList::Pairs(pairs) => map.serialize_entry(member, pairs)?,
                        MemberList::Runs(runs) => map.serialize_entry(member, runs)?,
                    }
                }
                map.end()
            }
        }
    }
}

/// The key of a server-side assignor's target in [`Previous::assignments`], beside the classic
/// strategies' names (`range` is the classic range there).
pub fn previous_key(assignor: ServerAssignor) -> &'static str {
    match assignor {
        ServerAssignor::Uniform => "uniform",
        ServerAssignor::Range => "consumer-range",
    }
}

impl<'de> Deserialize<'de> for MemberList {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = MemberList;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of [topic, partition] pairs, or runs of the layout (\"0-99,200\")")
            }

            fn visit_str<E: serde::de::Error>(self, runs: &str) -> Result<MemberList, E> {
                Ok(MemberList::Runs(runs.to_string()))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<MemberList, A::Error> {
                Vec::deserialize(serde::de::value::SeqAccessDeserializer::new(seq)).map(MemberList::Pairs)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

fn unique_strategy_lists<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, StrategyLists>, D::Error> {
    let outer = Entries::<String, Entries<String, MemberList>>::deserialize(deserializer)?;
    Ok(map_of(outer.0.into_iter().map(|(strategy, lists)| (strategy, StrategyLists::Read(lists.0)))))
}

fn version_one() -> u32 {
    1
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            version: 1, // format 1 until it is written in the compact forms
            title: String::new(),
            notes: String::new(),
            protocol: None,
            remote_assignor: None,
            topics: Vec::new(),
            consumers: Vec::new(),
            previous: None,
            view: View::default(),
        }
    }
}

/// A topic: its name, its partitions and where their replicas are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    /// The topic's name.
    pub name: String,
    /// How many partitions it has.
    pub partitions: u32,
    /// Its topic id, a Kafka `Uuid` (22 characters of URL-safe base64), set to reproduce a cluster's;
    /// absent: the id [`TopicSpec::topic_id`] derives from the name. Only the consumer protocol's
    /// assignors see ids (the order of a `HashSet` of them decides ties).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Replica racks, laid out round-robin: replica `i` of partition `p` is on
    /// `racks[(p + i) % racks.len()]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<ReplicaLayout>,
    /// Partitions whose replica racks differ from the layout (partition number to racks). A `null`
    /// rack is a broker without `broker.rack`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_map")]
    pub rack_overrides: BTreeMap<u32, Vec<Option<String>>>,
    /// Traffic of each partition (in the scenario's `weight_unit`, e.g. messages/s), for load by
    /// weight; absent: 1. Kafka's assignors never see it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<u64>,
    /// Partitions whose weight differs from the topic's (a hot partition): partition number to weight.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub partition_weights: BTreeMap<u32, u64>,
}

impl TopicSpec {
    /// A topic whose replicas' racks are unknown.
    pub fn new(name: impl Into<String>, partitions: u32) -> Self {
        TopicSpec {
            name: name.into(),
            partitions,
            id: None,
            replicas: None,
            rack_overrides: BTreeMap::new(),
            weight: None,
            partition_weights: BTreeMap::new(),
        }
    }

    /// The topic's id: the one it was given, else the one derived from its name
    /// ([`crate::topic_id::derived`]); `None` for an id `validate` refuses.
    pub fn topic_id(&self) -> Option<Uuid> {
        match &self.id {
            Some(text) => crate::topic_id::problem(text).is_none().then(|| text.parse().ok()).flatten(),
            None => Some(crate::topic_id::derived(&self.name)),
        }
    }
}

/// How a partition's replica racks are typed and shown on the page: `a,b,-`, where `-` is a replica
/// on a broker without `broker.rack`.
pub fn replica_racks_text(racks: &[Option<String>]) -> String {
    racks.iter().map(|rack| rack.as_deref().unwrap_or(NO_RACK)).collect::<Vec<_>>().join(",")
}

/// The racks typed as `a,b,-` (blank items are skipped).
pub fn parse_replica_racks(text: &str) -> Vec<Option<String>> {
    text.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| (item != NO_RACK).then(|| item.to_string()))
        .collect()
}

/// The page's mark for a replica on a broker without a rack.
pub const NO_RACK: &str = "-";

/// Where a topic's replicas are, laid out round-robin over racks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplicaLayout {
    /// Replication factor.
    pub factor: u32,
    /// The racks of the brokers replicas are laid out on, round-robin; `None` is a broker without
    /// `broker.rack` (clusters where racks are being introduced have both).
    pub racks: Vec<Option<String>>,
}

/// A consumer: its identity and configuration, and what it subscribes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerSpec {
    /// The `member.id`.
    pub id: String,
    /// `group.instance.id`, for a static member (KIP-345).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
    /// `client.rack` (KIP-881).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack: Option<String>,
    /// Topics subscribed to by name.
    #[serde(default)]
    pub topics: Vec<String>,
    /// Pattern subscriptions (Java regular expressions matched against whole topic names), which
    /// also pick up topics created later.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<String>,
    /// `partition.assignment.strategy`, preferred first; by default Kafka 3.0+'s
    /// `[range, cooperative-sticky]`.
    #[serde(default = "default_strategies", skip_serializing_if = "is_default_strategies")]
    pub strategies: Vec<String>,
}

impl ConsumerSpec {
    /// A dynamic member without a rack, subscribing to `topics` by name, with Kafka's default
    /// strategies.
    pub fn new(id: impl Into<String>, topics: &[&str]) -> Self {
        ConsumerSpec {
            id: id.into(),
            instance_id: None,
            rack: None,
            topics: topics.iter().map(|t| t.to_string()).collect(),
            patterns: Vec::new(),
            strategies: default_strategies(),
        }
    }
}

/// Kafka 3.0+'s default `partition.assignment.strategy`.
pub fn default_strategies() -> Vec<String> {
    vec!["range".into(), "cooperative-sticky".into()]
}

fn is_default_strategies(list: &[String]) -> bool {
    list == default_strategies().as_slice()
}

/// Member id to the partitions it owned, as `[topic, partition]` pairs.
pub type Owned = BTreeMap<String, Vec<(String, u32)>>;

/// The assignment before this rebalance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Previous {
    /// The generation the previous assignment was made in.
    pub generation: i32,
    /// Members whose claims are from another generation than `generation`; `null` for a member whose
    /// client sent none. A group snapshot can say this (a member that missed a rebalance); the
    /// page's own rebalances never do.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub generations: BTreeMap<String, Option<i32>>,
    /// Per strategy name, member id to its partitions in the order Kafka listed them. Members no
    /// longer among the consumers have left the group (a crash, a scale-in). Shared, as a snapshot's
    /// one history stands for every strategy (written out in full all the same).
    #[serde(deserialize_with = "unique_assignments")]
    pub assignments: BTreeMap<String, Arc<Owned>>,
    /// Deleted topics the assignments still name, to their `Uuid`s: on the consumer protocol a
    /// member's current target keeps a deleted topic's id (Kafka's coordinator only refreshes the
    /// group's metadata when a topic goes, `GroupMetadataManager.onNewMetadataImage`), and that id's
    /// place in the Java `HashMap` of the target can reorder the member's other topics, so which
    /// partitions the `uniform` assignor revokes first.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_map")]
    pub deleted_topic_ids: BTreeMap<String, String>,
}

impl Previous {
    /// How many partitions the assignments list, over every strategy.
    pub fn entries(&self) -> usize {
        self.assignments.values().flat_map(|owned| owned.values()).map(Vec::len).sum()
    }
}

/// What the page shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// The strategy panels shown, in order; empty means all four.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strategies: Vec<String>,
    /// Whether the rebalance diff is shown.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub diff: bool,
    /// What the topics' weights measure (`messages/s`, `bytes/s`, `LAG`); empty: weights are
    /// relative.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub weight_unit: String,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

impl Default for View {
    fn default() -> Self {
        View { strategies: Vec::new(), diff: true, weight_unit: String::new() }
    }
}

impl View {
    /// Whether this is what the page shows unless told otherwise (left out of files and links).
    pub fn is_default(&self) -> bool {
        *self == View::default()
    }

    /// The strategies whose panels are shown, in [`Strategy::ALL`] order: those the list names
    /// (by protocol or class name), or all four when it names none.
    pub fn shown(&self) -> Vec<Strategy> {
        let named: Vec<Strategy> = self.strategies.iter().filter_map(|s| s.parse().ok()).collect();
        if named.is_empty() {
            return Strategy::ALL.to_vec();
        }
        Strategy::ALL.into_iter().filter(|s| named.contains(s)).collect()
    }

    /// This view with `strategy`'s panel shown if it was hidden and hidden if it was shown. Showing
    /// all four, or none, is the default: all four.
    pub fn toggled(&self, strategy: Strategy) -> View {
        let mut shown = self.shown();
        if shown.contains(&strategy) {
            shown.retain(|s| *s != strategy);
        } else {
            shown.push(strategy);
        }
        let strategies = if shown.len() == Strategy::ALL.len() {
            Vec::new()
        } else {
            Strategy::ALL.into_iter().filter(|s| shown.contains(s)).map(|s| s.name().to_string()).collect()
        };
        View { strategies, ..self.clone() }
    }
}

/// One group snapshot of `kap batch`: the group about to rebalance under `strategy`, as the
/// leader's assignor would see it. Read straight from the input text: names borrow from it.
///
/// Unknown fields and repeated keys are refused, not skipped: a misspelled `"owend"` or a second
/// `"strategy"` would otherwise change the answer without a word.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot<'a> {
    /// Any JSON value, echoed verbatim in the answer.
    #[serde(default, borrow)]
    pub id: Option<&'a serde_json::value::RawValue>,
    /// `"classic"`, the default; a `"consumer"` line is a [`crate::consumer_snapshot::ConsumerSnapshot`].
    #[serde(default, borrow)]
    pub protocol: Option<Name<'a>>,
    /// The strategy's name (protocol or class name).
    #[serde(borrow)]
    pub strategy: Name<'a>,
    /// Topic name to partition count, as the cluster's metadata has them (0 partitions: a topic
    /// being created or re-created, which the assignors skip).
    #[serde(borrow)]
    pub topics: Entries<Name<'a>, u32>,
    /// Per topic, per partition, the rack of each replica's broker; `null` for a broker without
    /// `broker.rack`. A topic left out has no rack information.
    #[serde(default, borrow)]
    pub partition_racks: Entries<Name<'a>, Vec<Vec<Option<Name<'a>>>>>,
    /// In JoinGroup order; at most [`crate::validate::MAX_SNAPSHOT_MEMBERS`], refused while reading.
    #[serde(borrow, deserialize_with = "at_most_members")]
    pub members: Vec<SnapshotMember<'a>>,
}

/// The members of a snapshot, refused as soon as there is one too many (before the rest is read).
fn at_most_members<'de: 'a, 'a, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<SnapshotMember<'a>>, D::Error> {
    struct Visitor<'a>(std::marker::PhantomData<SnapshotMember<'a>>);
    impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visitor<'a> {
        type Value = Vec<SnapshotMember<'a>>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of members")
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let limit = crate::validate::MAX_SNAPSHOT_MEMBERS;
            let mut members = Vec::new();
            while let Some(member) = seq.next_element()? {
                if members.len() == limit {
                    return Err(serde::de::Error::custom(format_args!("more than {limit} members")));
                }
                members.push(member);
            }
            Ok(members)
        }
    }
    deserializer.deserialize_seq(Visitor(std::marker::PhantomData))
}

/// A member of a [`Snapshot`], as its client would join.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotMember<'a> {
    /// The `member.id`.
    #[serde(borrow)]
    pub id: Name<'a>,
    /// `group.instance.id`, for a static member (KIP-345); `null` for a dynamic one.
    #[serde(default, borrow)]
    pub instance_id: Option<Name<'a>>,
    /// `client.rack` (KIP-881); `null` or `""` for none.
    #[serde(default, borrow)]
    pub rack: Option<Name<'a>>,
    /// The topics it subscribes to.
    #[serde(default, borrow)]
    pub topics: Vec<Name<'a>>,
    /// What the member owned before this rebalance, in the order its last assignment listed them.
    #[serde(default, borrow)]
    pub owned: Vec<(Name<'a>, u32)>,
    /// The generation of that ownership; `null` for a member that never received an assignment.
    #[serde(default)]
    pub generation: Option<i32>,
}

/// A string read from JSON, borrowed from the input unless it holds escapes.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub struct Name<'a>(#[serde(borrow)] pub Cow<'a, str>);

/// Shown as the string it is (messages quote names this way).
impl std::fmt::Debug for Name<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl Name<'_> {
    /// The string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

/// A JSON object's entries in the order written, refusing a key written twice (serde's maps would
/// silently keep the last one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entries<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Entries<K, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<K: PartialEq, V> Entries<K, V> {
    /// The value written for `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: std::borrow::Borrow<Q>,
        Q: PartialEq + ?Sized,
    {
        self.0.iter().find(|(k, _)| k.borrow() == key).map(|(_, v)| v)
    }
}

impl<'de, K, V> Deserialize<'de> for Entries<K, V>
where
    K: Deserialize<'de> + Eq + std::hash::Hash + Clone + std::fmt::Debug,
    V: Deserialize<'de>,
{
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K, V> serde::de::Visitor<'de> for Visitor<K, V>
        where
            K: Deserialize<'de> + Eq + std::hash::Hash + Clone + std::fmt::Debug,
            V: Deserialize<'de>,
        {
            type Value = Entries<K, V>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries: Vec<(K, V)> = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
                let mut seen = std::collections::HashSet::new();
                while let Some(key) = map.next_key::<K>()? {
                    if !seen.insert(key.clone()) {
                        return Err(serde::de::Error::custom(format_args!("duplicate key {key:?}")));
                    }
                    let value = map.next_value()?;
                    entries.push((key, value));
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

/// [`Entries`] as a map: a scenario's maps refuse a key written twice too.
fn unique_map<'de, D, K, V>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    K: Deserialize<'de> + Ord + std::hash::Hash + Clone + std::fmt::Debug,
    V: Deserialize<'de>,
{
    Entries::deserialize(deserializer).map(|entries| map_of(entries.0))
}

fn unique_assignments<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, Arc<Owned>>, D::Error> {
    let outer = Entries::<String, Entries<String, Vec<(String, u32)>>>::deserialize(deserializer)?;
    Ok(map_of(outer.0.into_iter().map(|(strategy, lists)| (strategy, Arc::new(map_of(lists.0))))))
}

/// A map of entries whose keys are known to differ ([`Entries`] refuses a key written twice), by
/// insertion: `BTreeMap`'s `FromIterator` sorts its input first, and each key and value type then
/// costs the page's wasm its own copy of the standard library's stable sort (issue 9).
pub(crate) fn map_of<K: Ord, V>(entries: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (key, value) in entries {
        map.insert(key, value);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_written_twice_in_a_scenario_is_refused() {
        let twice = |inner: &str| format!(r#"{{"topics":[{{"name":"t","partitions":2,"rack_overrides":{inner}}}]}}"#);
        let refused = |text: &str| serde_json::from_str::<Scenario>(text).map_err(|e| e.to_string()).err();
        assert_eq!(refused(&twice(r#"{"1":["a"],"1":["b"]}"#)).as_deref(), Some("duplicate key 1 at line 1 column 69"));
        assert_eq!(refused(&twice(r#"{"0":["a"],"1":[null]}"#)), None);
        let previous = r#"{"previous":{"generation":1,"assignments":{"range":{"C0":[],"C0":[["t",0]]}}}}"#;
        assert_eq!(refused(previous).as_deref(), Some("duplicate key \"C0\" at line 1 column 64"));
        let orders = r#"{"previous":{"generation":1,"orders":{"range":"0","range":"0"},"assignments":{}}}"#;
        assert_eq!(refused(orders).as_deref(), Some("duplicate key \"range\" at line 1 column 57"));
        let strategies = r#"{"previous":{"generation":1,"assignments":{"range":{},"range":{}}}}"#;
        assert_eq!(refused(strategies).as_deref(), Some("duplicate key \"range\" at line 1 column 61"));
    }

    #[test]
    fn replica_racks_round_trip_through_the_page_notation() {
        let racks = vec![Some("a".to_string()), None, Some("b".to_string())];
        assert_eq!(replica_racks_text(&racks), "a,-,b");
        assert_eq!(parse_replica_racks(" a , -,b,"), racks);
        assert_eq!(parse_replica_racks("-"), vec![None]);
    }
}

//! What a panel shows, as plain data: a [`PanelDigest`] holds everything the page renders of one
//! classic strategy's [`StrategyReport`] or one server-side assignor's
//! [`ServerReport`](crate::server::ServerReport) (KIP-848), and nothing it does not; [`StrategyId`]
//! says which panel it is. It is serializable so that the
//! strategies can run in a Web Worker and send the page only this, and its size is bounded by the
//! number of members, never by the number of partitions: at a million partitions a panel is a
//! summary (the sorted load profile, per-topic spread, the heaviest and idle members, what moved),
//! and one member's partitions travel only when the page asks for them ([`MemberRequest`], answered
//! by [`member_detail`] from the report the worker keeps).
//!
//! ```
//! use scenario::digest::PanelDigest;
//! use scenario::report::Report;
//!
//! let scenario = scenario::presets::find("range-imbalance").unwrap().scenario().unwrap();
//! let report = Report::new(&scenario);
//! let range = PanelDigest::new(&report, &report.strategies[0], &scenario);
//! let outcome = range.outcome.as_ref().unwrap();
//! assert_eq!((outcome.metrics.max, outcome.metrics.min), (5, 3));
//! assert!(outcome.members.iter().all(|m| m.chips.is_some())); // a small group: every chip
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

use assignor::check::Metrics;
use assignor::protocol::RebalanceProtocol;
use assignor::rebalance::{Diff, Lists, Rebalance};
use assignor::TopicPartition;
use serde::{Deserialize, Serialize};

use crate::format::{Scenario, TopicSpec};
use crate::report::{Outcome, Report, StrategyReport};
use crate::strategy_id::StrategyId;

/// Up to this many partitions in all (and [`ROW_LIMIT`] members), a panel shows every partition as a
/// chip; above it, members' loads and a summary, and chips only for a member the user opens. A
/// panel is some 330 px wide beside three others, four chips a line: 500 partitions over 10 members
/// are 13 lines a row, and already 2,000 chips on the page. Past that, chips are scrolled, not read.
pub const CHIP_LIMIT: usize = 500;

/// Up to this many members a panel lists every member's row with its chips; above it, rows are a
/// list to scroll and search.
pub const ROW_LIMIT: usize = 200;

/// The most chips an opened member's detail carries; the rest are counted.
pub const MEMBER_CHIP_LIMIT: usize = 5_000;

/// How many names a list of members shows before it says how many more there are.
pub const NAMES_SHOWN: usize = 10;

/// How many points the sorted load profile has at most.
pub const PROFILE_POINTS: usize = 120;

/// How many entries the summaries of a big group list (heaviest members, topics, moves).
pub const SUMMARY_ENTRIES: usize = 5;

/// How many violations are listed before the rest are counted.
pub const VIOLATIONS_SHOWN: usize = 20;

/// Whether a group of `partitions` partitions and `members` members shows every chip.
pub fn shows_chips(partitions: usize, members: usize) -> bool {
    partitions <= CHIP_LIMIT && members <= ROW_LIMIT
}

impl StrategyId {
    /// Its panel's heading: `range`, `uniform (server)`, `range (server)` (as the broker names it).
    pub fn title(self) -> String {
        match self {
            StrategyId::Classic(strategy) => strategy.name().to_string(),
            StrategyId::Server(assignor) => format!("{} (server)", assignor.name()),
        }
    }
}

/// One panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PanelDigest {
    /// Whose panel it is, by the name it goes by everywhere (`range` … `uniform`, `consumer-range`).
    pub panel: StrategyId,
    /// What the strategy or assignor comes to, or why Kafka cannot assign the group.
    pub outcome: Result<OutcomeDigest, String>,
}

/// What a strategy or server-side assignor comes to, as its panel shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeDigest {
    /// The rebalance protocol's name: `EAGER` or `COOPERATIVE`; `CONSUMER` for a server-side assignor.
    pub protocol: String,
    /// Members that rebalance EAGER under a cooperative strategy (they list an eager-only one).
    pub eager_members: Names,
    /// A server-side assignor's subscription type (`HOMOGENEOUS`, `HETEROGENEOUS`): which of
    /// `uniform`'s builders ran. `None` for a classic strategy.
    pub subscription_type: Option<String>,
    /// The scenario's topic names, in the editor's order: a chip's `topic` indexes it, and the
    /// position is the topic's colour.
    pub topics: Arc<[String]>,
    /// Whether racks are in play (a consumer has one and some topic knows its replicas' racks).
    pub racks: bool,
    /// The balance figures of the assignment the group ends with.
    pub metrics: MetricsDigest,
    /// Load by traffic, when topics have weights.
    pub traffic: Option<TrafficDigest>,
    /// What moved, from what the members owned before.
    pub moves: MovesDigest,
    /// The rebalance's rounds and what stops meanwhile.
    pub timeline: TimelineDigest,
    /// A server-side assignor's reconciliation, heartbeat by heartbeat; `None` for a classic
    /// strategy and for a group too large to simulate ([`crate::server::MAX_RECONCILED`]).
    pub reconciliation: Option<Arc<ReconciliationDigest>>,
    /// What the assignment does that no assignment may (the first [`VIOLATIONS_SHOWN`]).
    pub violations: Vec<String>,
    /// How many violations there are in all.
    pub violation_count: usize,
    /// Every member of the assignment, in id order.
    pub members: Vec<Arc<MemberDigest>>,
    /// Whether members carry their chips ([`shows_chips`]); without, `summary` is set.
    pub chips: bool,
    /// A big group's summary (no chips).
    pub summary: Option<GroupSummary>,
}

/// Some member ids: the first [`NAMES_SHOWN`] and how many more.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Names {
    /// The first ones, in order.
    pub shown: Vec<String>,
    /// How many are left out.
    pub more: usize,
}

impl Names {
    fn of<'a>(all: impl IntoIterator<Item = &'a String>) -> Names {
        let mut shown = Vec::new();
        let mut more = 0;
        for name in all {
            if shown.len() < NAMES_SHOWN {
                shown.push(name.clone());
            } else {
                more += 1;
            }
        }
        Names { shown, more }
    }

    /// Whether there is no name.
    pub fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }

    /// How many names in all.
    pub fn len(&self) -> usize {
        self.shown.len() + self.more
    }
}

impl fmt::Display for Names {
    /// `a, b, c`, then ` and 12 more`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown.join(", "))?;
        if self.more > 0 {
            write!(f, " and {} more", self.more)?;
        }
        Ok(())
    }
}

/// The balance figures ([`assignor::check::Metrics`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetricsDigest {
    /// Most minus fewest partitions.
    pub spread: usize,
    /// The most partitions a member holds.
    pub max: usize,
    /// The fewest partitions a member holds.
    pub min: usize,
    /// The members holding `max` (none when nobody holds anything).
    pub most_loaded: Names,
    /// Members holding nothing.
    pub idle: Names,
    /// Subscribed partitions no one holds.
    pub unassigned: usize,
    /// Partitions read by a member on a rack that holds none of their replicas.
    pub cross_rack: usize,
    /// Partitions in the assignment.
    pub assigned: usize,
}

/// Load by partition weight ([`crate::load`]); weights never change an assignment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrafficDigest {
    /// What the weights measure (`messages/s`, `LAG`, …; `weight` when unnamed).
    pub unit: String,
    /// The weight of every assigned partition together.
    pub total: u64,
    /// Heaviest minus lightest member, by weight.
    pub spread: u64,
    /// The heaviest member's share of the total, in percent.
    pub heaviest_share: u64,
    /// The members carrying the most weight.
    pub most_loaded: Names,
}

/// What moved from the assignment before to the one after.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovesDigest {
    /// Whether the members owned anything before (without, there is no diff to show).
    pub had_owners: bool,
    /// Partitions that changed owner.
    pub moved: usize,
    /// Partitions that stop being processed while the group rebalances.
    pub paused: usize,
    /// Partitions moved although their owner still subscribed and had room for them.
    pub needless: usize,
}

impl MovesDigest {
    /// The moved partitions' share of `assigned`, in percent, as [`Outcome::moved_percent`].
    pub fn percent(&self, assigned: usize) -> f64 {
        100.0 * self.moved as f64 / assigned.max(1) as f64
    }
}

/// The rebalance's rounds, worded.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimelineDigest {
    /// One per JoinGroup/SyncGroup round.
    pub rounds: Vec<RoundDigest>,
    /// What stops while the group rebalances, in a sentence.
    pub pauses: String,
    /// False when a cooperative group still moves partitions back and forth after the last round.
    pub settled: bool,
}

/// One round of a rebalance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundDigest {
    /// The generation it makes.
    pub generation: i32,
    /// What it does, in a sentence.
    pub text: String,
}

/// One member's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberDigest {
    /// The member id.
    pub id: String,
    /// Its `client.rack`, if any.
    pub rack: Option<String>,
    /// How many partitions it holds.
    pub count: usize,
    /// The weight of its partitions (equals `count` without weights).
    pub weight: u64,
    /// Its load bar's width, in percent of the most loaded member's (by weight when weighted).
    pub bar: u8,
    /// Whether it is among the most loaded while loads differ.
    pub most_loaded: bool,
    /// Partitions it gained in the rebalance.
    pub added: usize,
    /// Partitions it gave up.
    pub revoked: usize,
    /// Of its partitions, those it reads across racks.
    pub cross_rack: usize,
    /// Below the chip limit: its partitions in Kafka's order, then the ones it revoked.
    pub chips: Option<Vec<Chip>>,
}

/// One partition on a member's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Chip {
    /// Its topic: an index into [`OutcomeDigest::topics`].
    pub topic: u32,
    /// Its number.
    pub partition: u32,
    /// Kept, added or revoked in this rebalance.
    pub kind: ChipKind,
    /// Whether the member reads it from another rack than any of its replicas' (what
    /// [`MetricsDigest::cross_rack`] counts).
    pub cross_rack: bool,
}

/// What a rebalance did to a member's partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChipKind {
    /// Held before and after.
    Kept,
    /// Held after, not before.
    Added,
    /// Held before, not after.
    Revoked,
}

impl ChipKind {
    /// The word for it: `kept`, `added`, `revoked`.
    pub fn name(self) -> &'static str {
        match self {
            ChipKind::Kept => "kept",
            ChipKind::Added => "added",
            ChipKind::Revoked => "revoked",
        }
    }
}

/// A big group's panel in a few figures, none of them per partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupSummary {
    /// Members' loads (by weight when weighted), heaviest first, sampled to at most
    /// [`PROFILE_POINTS`] points: the first and last are the heaviest and lightest member.
    pub profile: Vec<u64>,
    /// The heaviest members and their loads, heaviest first (ties in id order).
    pub heaviest: Vec<(String, u64)>,
    /// The topics whose partitions are spread least evenly over their subscribers, most uneven
    /// first: topic index and spread.
    pub uneven_topics: Vec<(u32, usize)>,
    /// How many topics have a spread above 1 (a partition of it could move to even it out).
    pub uneven_count: usize,
    /// The largest flows of moved partitions: from, to (`None`: withheld) and how many.
    pub flows: Vec<Flow>,
    /// Moved partitions per topic, most first: topic index and count.
    pub moved_by_topic: Vec<(u32, usize)>,
}

/// Partitions that moved from one member to another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flow {
    /// The member they left.
    pub from: String,
    /// The member they went to; `None` while a cooperative round withholds them.
    pub to: Option<String>,
    /// How many.
    pub count: usize,
}

/// How the members of a server-side panel reach its target, heartbeat by heartbeat
/// ([`reconcile::simulate`](assignor::consumer_group::reconcile::simulate)), as its lanes show it:
/// each member's lane only where it changes, never every heartbeat of every member.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReconciliationDigest {
    /// The group epoch the members reach.
    pub epoch: i32,
    /// Rounds of heartbeats played.
    pub rounds: usize,
    /// Whether every member reached the target.
    pub converged: bool,
    /// The members in the order they heartbeat, round after round.
    pub heartbeats: Vec<String>,
    /// The samples worth a column: before the first heartbeat (0), then each heartbeat of the
    /// group after which some lane changed.
    pub columns: Vec<usize>,
    /// Each member's lane, in heartbeat order; empty when lanes × columns would exceed
    /// [`LANE_CELLS`] (the figures and stops are still given).
    pub lanes: Vec<LaneDigest>,
    /// The partitions that stop, the first [`STOPS_SHOWN`].
    pub stops: Vec<StopDigest>,
    /// How many partitions stop in all.
    pub stop_count: usize,
}

/// At most this many lane cells (members × columns) are sent and drawn: beyond, a table is not read.
pub const LANE_CELLS: usize = 5_000;

/// How many stops are listed before the rest are counted.
pub const STOPS_SHOWN: usize = 100;

/// One member's lane: what it consumes before the first heartbeat, then after each heartbeat that
/// changes what it consumes or its state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneDigest {
    /// The member id.
    pub member: String,
    /// Its changes, by heartbeat (the first is `after: 0`).
    pub samples: Vec<LaneSample>,
}

/// What a member consumes after a heartbeat of the group, and its state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneSample {
    /// After how many heartbeats of the group (0: before the first).
    pub after: usize,
    /// The coordinator's state of the member then.
    pub state: LaneState,
    /// The partitions it consumes, sorted: topic (an index into [`OutcomeDigest::topics`]) and
    /// partition.
    pub consuming: Vec<(u32, u32)>,
}

/// The coordinator's member states ([`MemberState`](assignor::consumer_group::reconcile::MemberState)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LaneState {
    /// At its target epoch with its target.
    Stable,
    /// Must revoke partitions before it moves on (UNREVOKED_PARTITIONS).
    UnrevokedPartitions,
    /// Waits for partitions another member still holds (UNRELEASED_PARTITIONS).
    UnreleasedPartitions,
}

impl LaneState {
    /// The coordinator's name: `STABLE`, `UNREVOKED_PARTITIONS`, `UNRELEASED_PARTITIONS`.
    pub fn name(self) -> &'static str {
        match self {
            LaneState::Stable => "STABLE",
            LaneState::UnrevokedPartitions => "UNREVOKED_PARTITIONS",
            LaneState::UnreleasedPartitions => "UNRELEASED_PARTITIONS",
        }
    }
}

/// A partition nobody consumed for some heartbeats, between its old and its new owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopDigest {
    /// Its topic: an index into [`OutcomeDigest::topics`].
    pub topic: u32,
    /// Its number.
    pub partition: u32,
    /// The member consuming it before.
    pub from: String,
    /// The member consuming it at the end.
    pub to: String,
    /// For how many heartbeats of the group nobody consumed it.
    pub heartbeats: usize,
}

/// The page asking for one member's partitions in one panel.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MemberRequest {
    /// The panel.
    pub panel: StrategyId,
    /// The member id.
    pub member: String,
}

/// One member's partitions, for a member opened in a big group's panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberDetail {
    /// What was asked.
    pub request: MemberRequest,
    /// Its chips (the first [`MEMBER_CHIP_LIMIT`]): its partitions, then the ones it revoked.
    pub chips: Vec<Chip>,
    /// How many chips are left out.
    pub more: usize,
    /// The topic names chips index ([`OutcomeDigest::topics`]).
    pub topics: Arc<[String]>,
}

impl PanelDigest {
    /// The digest of `strategy`'s panel, one strategy of `report` (the report of `scenario`).
    pub fn new(report: &Report, strategy: &StrategyReport, scenario: &Scenario) -> PanelDigest {
        let outcome = match &strategy.outcome {
            Ok(outcome) => Ok(OutcomeDigest::new(report, outcome, scenario)),
            Err(e) => Err(e.to_string()),
        };
        PanelDigest { panel: StrategyId::Classic(strategy.strategy), outcome }
    }

    /// The digest of every strategy's panel in `report` (the report of `scenario`).
    pub fn all(report: &Report, scenario: &Scenario) -> Vec<PanelDigest> {
        report.strategies.iter().map(|s| PanelDigest::new(report, s, scenario)).collect()
    }
}

/// Topics by name as the indices chips and lanes carry: the scenario's, in the editor's order (a
/// topic's position is its colour). Partitions of topics the scenario no longer has are dropped from
/// what members owned before anything is assigned (`Model`), so no chip names one.
pub(crate) struct TopicIndex<'a> {
    topics: HashMap<&'a str, (u32, &'a TopicSpec)>,
}

impl<'a> TopicIndex<'a> {
    pub(crate) fn new(scenario: &'a Scenario) -> TopicIndex<'a> {
        TopicIndex { topics: (0u32..).zip(&scenario.topics).map(|(i, t)| (t.name.as_str(), (i, t))).collect() }
    }

    /// `topic`'s index.
    pub(crate) fn of(&self, topic: &str) -> u32 {
        self.topics.get(topic).map_or(0, |(i, _)| *i)
    }
}

/// The scenario's topic names, which chips index ([`TopicIndex`]).
fn topic_names(scenario: &Scenario) -> Arc<[String]> {
    scenario.topics.iter().map(|t| t.name.clone()).collect()
}

/// The racks of members and replicas, for telling which partitions are read across racks.
struct Racks<'a> {
    member: HashMap<&'a str, &'a str>,
    topics: TopicIndex<'a>,
    in_play: bool,
}

impl<'a> Racks<'a> {
    fn new(scenario: &'a Scenario, in_play: bool) -> Racks<'a> {
        let member = scenario
            .consumers
            .iter()
            .filter_map(|c| c.rack.as_deref().filter(|r| !r.is_empty()).map(|r| (c.id.as_str(), r)))
            .collect();
        Racks { member, topics: TopicIndex::new(scenario), in_play }
    }

    fn topic_index(&self, topic: &str) -> u32 {
        self.topics.of(topic)
    }

    /// Whether `member` reads `tp` across racks: it has a rack, some replica's rack is known and
    /// none is its own ([`assignor::check::metrics`] counts the same).
    fn across(&self, member_rack: Option<&str>, tp: &TopicPartition) -> bool {
        // Checked in this order so that a group without racks looks nothing up per partition.
        let Some(rack) = member_rack.filter(|_| self.in_play) else { return false };
        let Some((_, spec)) = self.topics.topics.get(&*tp.topic) else { return false };
        if let Some(replicas) = spec.rack_overrides.get(&tp.partition) {
            return replicas_elsewhere(replicas.iter().map(Option::as_deref), rack);
        }
        match spec.replicas.as_ref().filter(|l| !l.racks.is_empty() && l.factor > 0) {
            Some(layout) => {
                // Replica i sits on racks[(p + i) % len]: past len replicas, the racks repeat.
                let len = layout.racks.len();
                let replicas = (0..(layout.factor as usize).min(len))
                    .filter_map(|i| layout.racks.get((tp.partition as usize + i) % len))
                    .map(Option::as_deref);
                replicas_elsewhere(replicas, rack)
            }
            None => false,
        }
    }
}

/// Whether some of `replicas`' racks is known and none is `rack`.
fn replicas_elsewhere<'r>(replicas: impl Iterator<Item = Option<&'r str>> + Clone, rack: &str) -> bool {
    let mut known = replicas.flatten();
    known.clone().next().is_some() && !known.any(|r| r == rack)
}

/// What a panel shows of an assignment, whichever protocol made it: the classic strategies'
/// [`Outcome`]s and the consumer protocol's server-side assignors ([`crate::server`]) both give one.
pub(crate) struct Assigned<'a> {
    /// Each member's partitions, in the assignor's order.
    pub result: &'a Lists,
    /// From before to `result`.
    pub diff: &'a Diff,
    /// Of `result`.
    pub metrics: &'a Metrics,
    /// What the members owned before.
    pub before: &'a Lists,
    /// Partitions moved although their owner still subscribed and had room for them.
    pub needless: usize,
    /// Partitions that stop while the group rebalances.
    pub paused: usize,
    /// The protocol's name.
    pub protocol: String,
    /// Members that rebalance EAGER under a cooperative strategy.
    pub eager_members: Names,
    /// A server-side assignor's subscription type.
    pub subscription_type: Option<String>,
    /// The rebalance's steps, worded.
    pub timeline: TimelineDigest,
    /// A server-side assignor's reconciliation.
    pub reconciliation: Option<Arc<ReconciliationDigest>>,
    /// What the assignment does that no assignment may.
    pub violations: Vec<String>,
}

impl OutcomeDigest {
    fn new(report: &Report, outcome: &Outcome, scenario: &Scenario) -> OutcomeDigest {
        let rebalance = &outcome.rebalance;
        let assigned = Assigned {
            result: rebalance.result(),
            diff: &rebalance.diff,
            metrics: &outcome.metrics,
            before: &rebalance.before,
            needless: outcome.needless_moves,
            paused: rebalance.paused_count(),
            protocol: rebalance.protocol.name().to_string(),
            eager_members: Names::of(&rebalance.eager_members),
            subscription_type: None,
            timeline: TimelineDigest::new(rebalance),
            reconciliation: None,
            violations: outcome.violations.iter().map(ToString::to_string).collect(),
        };
        OutcomeDigest::build(report, &assigned, &scenario.topics, scenario)
    }

    /// The digest of `assigned`, one assignment of `report` (the report of `scenario`); `loads` are
    /// the topics whose weights count.
    pub(crate) fn build(
        report: &Report,
        assigned: &Assigned,
        loads: &[TopicSpec],
        scenario: &Scenario,
    ) -> OutcomeDigest {
        let metrics = assigned.metrics;
        let result = assigned.result;
        let racks = Racks::new(scenario, report.racks);
        let topics = topic_names(scenario);
        let chips = shows_chips(report.total_partitions, result.len());
        let weighted = scenario.topics.iter().any(TopicSpec::is_weighted);
        let load = crate::load::load(loads, result);
        let traffic = weighted.then(|| TrafficDigest {
            unit: if scenario.view.weight_unit.is_empty() {
                "weight".to_string()
            } else {
                scenario.view.weight_unit.clone()
            },
            total: load.total,
            spread: load.spread,
            heaviest_share: load.heaviest_share(),
            most_loaded: Names::of(&load.most_loaded),
        });
        let weight_of = |member: &str| load.members.get(member).map_or(0, |m| m.weight);
        let heaviest = load.members.values().map(|m| m.weight).max().unwrap_or(0).max(1);
        let most_count = metrics.max.max(1);
        let members: Vec<Arc<MemberDigest>> = result
            .iter()
            .map(|(id, list)| {
                let change = assigned.diff.members.get(id);
                let rack = racks.member.get(id.as_str()).copied();
                let weight = weight_of(id);
                let most_loaded = match &traffic {
                    Some(t) => t.spread > 0 && load.most_loaded.contains(id),
                    None => metrics.spread() > 0 && metrics.most_loaded.contains(id),
                };
                let bar = match traffic {
                    Some(_) => u128::from(weight) * 100 / u128::from(heaviest),
                    None => (list.len() * 100 / most_count) as u128,
                };
                let member_chips = chips.then(|| member_chips(&racks, result, assigned.diff, id, usize::MAX).0);
                Arc::new(MemberDigest {
                    id: id.clone(),
                    rack: rack.map(str::to_string),
                    count: list.len(),
                    weight,
                    bar: u8::try_from(bar.min(100)).unwrap_or(100),
                    most_loaded,
                    added: change.map_or(0, |c| c.added.len()),
                    revoked: change.map_or(0, |c| c.revoked.len()),
                    cross_rack: list.iter().filter(|tp| racks.across(rack, tp)).count(),
                    chips: member_chips,
                })
            })
            .collect();
        let summary = (!chips).then(|| GroupSummary::new(metrics, assigned.diff, &members, &racks, traffic.is_some()));
        OutcomeDigest {
            protocol: assigned.protocol.clone(),
            eager_members: assigned.eager_members.clone(),
            subscription_type: assigned.subscription_type.clone(),
            topics,
            racks: report.racks,
            metrics: MetricsDigest {
                spread: metrics.spread(),
                max: metrics.max,
                min: metrics.min,
                most_loaded: Names::of(&metrics.most_loaded),
                idle: Names::of(&metrics.idle),
                unassigned: metrics.unassigned,
                cross_rack: metrics.cross_rack,
                assigned: metrics.assigned,
            },
            traffic,
            moves: MovesDigest {
                had_owners: !assigned.before.values().all(Vec::is_empty),
                moved: assigned.diff.moved.len(),
                paused: assigned.paused,
                needless: assigned.needless,
            },
            timeline: assigned.timeline.clone(),
            reconciliation: assigned.reconciliation.clone(),
            violations: assigned.violations.iter().take(VIOLATIONS_SHOWN).cloned().collect(),
            violation_count: assigned.violations.len(),
            members,
            chips,
            summary,
        }
    }
}

/// `member`'s chips, at most `limit`: what it holds in Kafka's order (kept or added), then what it
/// revoked; and how many were left out.
fn member_chips(racks: &Racks, result: &Lists, diff: &Diff, member: &str, limit: usize) -> (Vec<Chip>, usize) {
    let held = result.get(member).map(Vec::as_slice).unwrap_or_default();
    let change = diff.members.get(member);
    let revoked = change.map(|c| c.revoked.as_slice()).unwrap_or_default();
    let added: std::collections::HashSet<&TopicPartition> =
        change.map(|c| c.added.iter().collect()).unwrap_or_default();
    let rack = racks.member.get(member).copied();
    let chip = |tp: &TopicPartition, kind| Chip {
        topic: racks.topic_index(&tp.topic),
        partition: tp.partition,
        kind,
        cross_rack: kind != ChipKind::Revoked && racks.across(rack, tp),
    };
    let all = held
        .iter()
        .map(|tp| chip(tp, if added.contains(tp) { ChipKind::Added } else { ChipKind::Kept }))
        .chain(revoked.iter().map(|tp| chip(tp, ChipKind::Revoked)));
    let chips: Vec<Chip> = all.take(limit).collect();
    let more = (held.len() + revoked.len()).saturating_sub(chips.len());
    (chips, more)
}

/// Answers the page's request for one member's partitions, from the report of `scenario`: `None`
/// when the strategy did not assign or the member is not in its panel.
pub fn member_detail(report: &Report, scenario: &Scenario, request: &MemberRequest) -> Option<MemberDetail> {
    let (result, diff) = match request.panel {
        StrategyId::Classic(strategy) => {
            let rebalance = &report.outcome(strategy)?.rebalance;
            (rebalance.result(), &*rebalance.diff)
        }
        StrategyId::Server(assignor) => {
            let outcome = report.server(assignor)?;
            (&outcome.target, &*outcome.diff)
        }
    };
    if !result.contains_key(&request.member) {
        return None;
    }
    let racks = Racks::new(scenario, report.racks);
    let (chips, more) = member_chips(&racks, result, diff, &request.member, MEMBER_CHIP_LIMIT);
    let topics = topic_names(scenario);
    Some(MemberDetail { request: request.clone(), chips, more, topics })
}

impl TimelineDigest {
    fn new(rebalance: &Rebalance) -> TimelineDigest {
        let eager = rebalance.protocol == RebalanceProtocol::Eager;
        let rounds = rebalance
            .rounds
            .iter()
            .enumerate()
            .map(|(i, round)| {
                let revoked = round.diff.revoked_count();
                let withheld = round.assignment.withheld.len();
                let added: usize = round.diff.members.values().map(|c| c.added.len()).sum();
                let text = if eager {
                    format!(
                        "every member revokes all it owns, then gets {} partitions",
                        round.assignment.assigned_count()
                    )
                } else if i == 0 {
                    format!("{revoked} revoked, {withheld} held back until their owner lets go, {added} handed out")
                } else {
                    format!("follow-up: {added} handed to their new owner, {revoked} revoked")
                };
                RoundDigest { generation: round.generation, text }
            })
            .collect();
        let paused = rebalance.paused_count();
        let pauses = if eager {
            format!("stop-the-world: {paused} partitions stop while the group rebalances")
        } else if !rebalance.eager_members.is_empty() {
            format!(
                "{paused} partitions stop: {} still rebalance eagerly (they list an eager-only strategy) and revoke everything",
                Names::of(&rebalance.eager_members)
            )
        } else if paused == 0 {
            "nothing stops: no member gives up a partition it is consuming".to_string()
        } else if paused == 1 {
            "only the 1 partition that moves stops; the rest keep flowing".to_string()
        } else {
            format!("only the {paused} partitions that move stop; the rest keep flowing")
        };
        TimelineDigest { rounds, pauses, settled: rebalance.settled }
    }
}

impl GroupSummary {
    fn new(
        metrics: &Metrics,
        diff: &Diff,
        members: &[Arc<MemberDigest>],
        racks: &Racks,
        weighted: bool,
    ) -> GroupSummary {
        let load = |m: &MemberDigest| if weighted { m.weight } else { m.count as u64 };
        let mut by_load: Vec<&MemberDigest> = members.iter().map(|m| &**m).collect();
        by_load.sort_by(|a, b| load(b).cmp(&load(a)).then_with(|| a.id.cmp(&b.id)));
        let profile = sample(&by_load.iter().map(|m| load(m)).collect::<Vec<_>>(), PROFILE_POINTS);
        let heaviest =
            by_load.iter().take(SUMMARY_ENTRIES).filter(|m| load(m) > 0).map(|m| (m.id.clone(), load(m))).collect();
        let spreads = &metrics.topic_spread;
        let mut uneven: Vec<(u32, usize)> =
            spreads.iter().filter(|(_, &s)| s > 1).map(|(t, &s)| (racks.topic_index(t), s)).collect();
        let uneven_count = uneven.len();
        uneven.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        uneven.truncate(SUMMARY_ENTRIES);
        // Hashed, not ordered, while counting: a changed partition count can move nearly every
        // partition (roundrobin), a million of them.
        let mut flows: HashMap<(&str, Option<&str>), usize> = HashMap::new();
        let mut by_topic: BTreeMap<u32, usize> = BTreeMap::new();
        // Moves come sorted by partition, topic by topic: each topic's name is looked up once.
        let mut topic: Option<(&str, u32)> = None;
        for moved in &diff.moved {
            *flows.entry((moved.from.as_str(), moved.to.as_deref())).or_default() += 1;
            let name = &*moved.partition.topic;
            let index = match topic {
                Some((last, index)) if last == name => index,
                _ => racks.topic_index(name),
            };
            topic = Some((name, index));
            *by_topic.entry(index).or_default() += 1;
        }
        let mut flows: Vec<((&str, Option<&str>), usize)> = flows.into_iter().collect();
        // Most first; equal flows in (from, to) order.
        flows.sort_unstable_by(|(a, a_count), (b, b_count)| b_count.cmp(a_count).then_with(|| a.cmp(b)));
        flows.truncate(SUMMARY_ENTRIES);
        let flows: Vec<Flow> = flows
            .into_iter()
            .map(|((from, to), count)| Flow { from: from.to_string(), to: to.map(str::to_string), count })
            .collect();
        let mut moved_by_topic: Vec<(u32, usize)> = by_topic.into_iter().collect();
        moved_by_topic.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        moved_by_topic.truncate(SUMMARY_ENTRIES);
        GroupSummary { profile, heaviest, uneven_topics: uneven, uneven_count, flows, moved_by_topic }
    }
}

/// At most `points` values of `sorted`, evenly spaced by rank, its first and last included.
fn sample(sorted: &[u64], points: usize) -> Vec<u64> {
    if sorted.len() <= points {
        return sorted.to_vec();
    }
    if points < 2 {
        return sorted.iter().copied().take(points).collect();
    }
    let last = sorted.len() - 1;
    (0..points).filter_map(|i| sorted.get(i * last / (points - 1)).copied()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ConsumerSpec;
    use assignor::consumer_group::ServerAssignor;
    use assignor::Strategy;

    fn preset(id: &str) -> Scenario {
        crate::presets::find(id).and_then(|p| p.scenario().ok()).unwrap_or_default()
    }

    fn digests(scenario: &Scenario) -> (Report, Vec<PanelDigest>) {
        let report = Report::new(scenario);
        let digests = PanelDigest::all(&report, scenario);
        (report, digests)
    }

    fn outcome<'a>(digests: &'a [PanelDigest], strategy: &str) -> &'a OutcomeDigest {
        digests.iter().find(|d| d.panel.name() == strategy).and_then(|d| d.outcome.as_ref().ok()).unwrap()
    }

    /// A member's chips as `t-p` texts with a mark for added (`+`), revoked (`-`) and cross-rack (`*`).
    fn texts(digest: &OutcomeDigest, member: &str) -> Vec<String> {
        let row = digest.members.iter().find(|m| m.id == member).unwrap();
        row.chips.as_ref().unwrap().iter().map(|c| chip_text(&digest.topics, c)).collect()
    }

    fn chip_text(topics: &[String], c: &Chip) -> String {
        let mark = match c.kind {
            ChipKind::Kept => "",
            ChipKind::Added => "+",
            ChipKind::Revoked => "-",
        };
        format!("{mark}{}-{}{}", topics[c.topic as usize], c.partition, if c.cross_rack { "*" } else { "" })
    }

    #[test]
    fn a_crash_digest_shows_what_moved_and_what_stops() {
        let (_, digests) = digests(&preset("sticky-crash-c3"));
        let sticky = outcome(&digests, "sticky");
        assert_eq!(sticky.protocol, "EAGER");
        assert!(sticky.chips && sticky.summary.is_none());
        assert_eq!(sticky.members.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["C1", "C2"]);
        assert_eq!(texts(sticky, "C1"), ["T-0", "T-3", "+T-2"]);
        assert_eq!(texts(sticky, "C2"), ["T-1", "T-4", "+T-5"]);
        assert_eq!(sticky.moves, MovesDigest { had_owners: true, moved: 2, paused: 4, needless: 0 });
        assert_eq!(sticky.timeline.pauses, "stop-the-world: 4 partitions stop while the group rebalances");
        let cooperative = outcome(&digests, "cooperative-sticky");
        assert_eq!(cooperative.protocol, "COOPERATIVE");
        assert_eq!(cooperative.moves.paused, 0);
        assert_eq!(cooperative.timeline.pauses, "nothing stops: no member gives up a partition it is consuming");
        assert_eq!(
            cooperative.timeline.rounds,
            [RoundDigest {
                generation: 2,
                text: "2 revoked, 0 held back until their owner lets go, 2 handed out".into()
            }]
        );
        let m = &sticky.metrics;
        assert_eq!((m.spread, m.max, m.min, m.assigned, m.unassigned), (0, 3, 3, 6, 0));
        assert!(m.most_loaded.shown == ["C1", "C2"] && m.idle.is_empty());
    }

    #[test]
    fn a_range_imbalance_digest_marks_the_most_loaded_member() {
        let (_, digests) = digests(&preset("range-imbalance"));
        let range = outcome(&digests, "range");
        let row = |id: &str| range.members.iter().find(|m| m.id == id).unwrap();
        assert_eq!((row("C1").count, row("C1").bar, row("C1").most_loaded), (5, 100, true));
        assert_eq!((row("C2").count, row("C2").bar, row("C2").most_loaded), (3, 60, false));
        assert_eq!(range.metrics.most_loaded.to_string(), "C1");
        assert_eq!(range.metrics.spread, 2);
        assert!(range.traffic.is_none());
    }

    #[test]
    fn a_rack_digest_marks_each_chip_read_across_racks() {
        let scenario = preset("rack-aware");
        let (report, digests) = digests(&scenario);
        assert!(report.racks);
        for digest in &digests {
            let outcome = digest.outcome.as_ref().unwrap();
            let marked: usize =
                outcome.members.iter().map(|m| m.chips.as_ref().unwrap().iter().filter(|c| c.cross_rack).count()).sum();
            let counted: usize = outcome.members.iter().map(|m| m.cross_rack).sum();
            assert_eq!((marked, counted), (outcome.metrics.cross_rack, outcome.metrics.cross_rack), "{}", digest.panel);
            let racks: Vec<Option<&str>> = outcome.members.iter().map(|m| m.rack.as_deref()).collect();
            assert_eq!(racks, [Some("a"), Some("b"), Some("c")]);
        }
        // The preset's own lesson: roundrobin reads six of the nine partitions across zones.
        assert_eq!(outcome(&digests, "roundrobin").metrics.cross_rack, 6);
        assert_eq!(outcome(&digests, "range").metrics.cross_rack, 0);
    }

    #[test]
    fn a_digests_totals_agree_with_its_report() {
        for preset in crate::presets::all() {
            let scenario = preset.scenario().unwrap();
            let (report, digests) = digests(&scenario);
            for (digest, strategy) in digests.iter().zip(&report.strategies) {
                let (Ok(d), Ok(o)) = (&digest.outcome, &strategy.outcome) else { continue };
                let result = o.rebalance.result();
                assert_eq!(d.members.len(), result.len());
                assert_eq!(d.members.iter().map(|m| m.count).sum::<usize>(), o.metrics.assigned);
                assert_eq!(d.members.iter().map(|m| m.added).sum::<usize>(), count_added(&o.rebalance));
                for m in &d.members {
                    let chips = m.chips.as_ref().unwrap();
                    let held: Vec<String> = chips
                        .iter()
                        .filter(|c| c.kind != ChipKind::Revoked)
                        .map(|c| format!("{}-{}", d.topics[c.topic as usize], c.partition))
                        .collect();
                    let expected: Vec<String> = result[&m.id].iter().map(ToString::to_string).collect();
                    assert_eq!(held, expected, "{} {} {}", preset.id, digest.panel, m.id);
                    assert_eq!(chips.len() - held.len(), m.revoked);
                }
                assert_eq!(d.moves.moved, o.moved());
                assert_eq!(d.timeline.rounds.len(), o.rebalance.rounds.len());
            }
        }
    }

    fn count_added(rebalance: &Rebalance) -> usize {
        rebalance
            .diff
            .members
            .iter()
            .filter(|(id, _)| rebalance.result().contains_key(*id))
            .map(|(_, c)| c.added.len())
            .sum()
    }

    /// `topics` topics of `partitions` each, `members` consumers subscribing to all, and a crash:
    /// the group owned a fresh assignment, then the last consumer leaves.
    fn big_group(topics: usize, partitions: u32, members: usize) -> Scenario {
        let names: Vec<String> = (0..topics).map(|t| format!("t{t}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let scenario = Scenario {
            topics: names.iter().map(|n| TopicSpec::new(n, partitions)).collect(),
            consumers: (0..members).map(|m| ConsumerSpec::new(format!("C{m:04}"), &refs)).collect(),
            ..Scenario::default()
        };
        let mut settled = Report::new(&scenario).settled(&scenario);
        settled.consumers.pop();
        settled
    }

    #[test]
    fn a_big_group_is_summarised_in_a_size_bounded_digest() {
        let scenario = big_group(20, 500, 300);
        let (report, digests) = digests(&scenario);
        let sticky = outcome(&digests, "sticky");
        assert!(!sticky.chips && sticky.members.iter().all(|m| m.chips.is_none()));
        let summary = sticky.summary.as_ref().unwrap();
        assert_eq!(summary.profile.len(), PROFILE_POINTS);
        assert_eq!(summary.profile.first(), Some(&(sticky.metrics.max as u64)));
        assert_eq!(summary.profile.last(), Some(&(sticky.metrics.min as u64)));
        assert!(summary.profile.is_sorted_by(|a, b| a >= b));
        assert_eq!(summary.heaviest.len(), SUMMARY_ENTRIES);
        // Only the crashed member's partitions moved, one or two to each member that stayed.
        let owned = report.outcome(assignor::Strategy::Sticky).unwrap().rebalance.before["C0299"].len();
        assert_eq!(sticky.moves.moved, owned);
        assert_eq!(summary.flows.len(), SUMMARY_ENTRIES);
        assert!(
            summary.flows.iter().all(|f| f.from == "C0299" && f.to.is_some() && f.count >= 1),
            "{:?}",
            summary.flows
        );
        let by_topic: Vec<usize> = summary.moved_by_topic.iter().map(|&(_, n)| n).collect();
        assert!(by_topic.len() == SUMMARY_ENTRIES && by_topic.iter().sum::<usize>() < owned, "{by_topic:?}");
        assert!(by_topic.is_sorted_by(|a, b| a >= b));
        assert_eq!(sticky.members.iter().map(|m| m.count).sum::<usize>(), 10_000);
        // Members are named, partitions only counted: the JSON stays a few hundred bytes a member.
        let json = serde_json::to_string(&digests).unwrap();
        assert!(json.len() < 4 * 299 * 300, "{} bytes", json.len());
        assert_eq!(serde_json::from_str::<Vec<PanelDigest>>(&json).unwrap(), digests);
        // Opening one member brings its chips back, as the small group's row has them.
        let request = MemberRequest { panel: StrategyId::Classic(Strategy::Sticky), member: "C0007".into() };
        let detail = member_detail(&report, &scenario, &request).unwrap();
        let held: Vec<String> =
            detail.chips.iter().filter(|c| c.kind != ChipKind::Revoked).map(|c| chip_text(&detail.topics, c)).collect();
        let result = &report.outcome(assignor::Strategy::Sticky).unwrap().rebalance.result()["C0007"];
        let marked: Vec<String> = result
            .iter()
            .map(|tp| {
                let added = report.outcome(assignor::Strategy::Sticky).unwrap().rebalance.diff.members["C0007"]
                    .added
                    .contains(tp);
                format!("{}{tp}", if added { "+" } else { "" })
            })
            .collect();
        assert_eq!(held, marked);
        assert_eq!(detail.more, 0);
        let gone = MemberRequest { panel: StrategyId::Classic(Strategy::Sticky), member: "C0299".into() };
        assert_eq!(member_detail(&report, &scenario, &gone), None);
    }

    #[test]
    fn with_weights_a_big_groups_load_is_traffic() {
        let mut scenario = big_group(20, 500, 300);
        scenario.topics[0].weight = Some(100);
        scenario.view.weight_unit = "messages/s".into();
        let (report, digests) = digests(&scenario);
        let range = outcome(&digests, "range");
        let load = report.outcome(assignor::Strategy::Range).unwrap().load(&scenario.topics);
        let traffic = range.traffic.as_ref().unwrap();
        assert_eq!((traffic.unit.as_str(), traffic.total, traffic.spread), ("messages/s", load.total, load.spread));
        let summary = range.summary.as_ref().unwrap();
        let heaviest = load.members.values().map(|m| m.weight).max().unwrap();
        assert_eq!(summary.profile.first(), Some(&heaviest));
        assert_eq!(summary.heaviest.first().map(|(id, w)| (load.most_loaded.contains(id), *w)), Some((true, heaviest)));
        for m in &range.members {
            assert_eq!(m.weight, load.members[&m.id].weight);
            assert_eq!(u64::from(m.bar), m.weight * 100 / heaviest);
        }
    }

    /// Kafka's large test (a million partitions, 2,000 consumers): run with `--release --ignored`.
    #[test]
    #[ignore = "a million partitions: slow unoptimised"]
    fn a_million_partitions_digest_in_a_few_hundred_bytes_a_member() {
        let names: Vec<String> = (0..500).map(|t| format!("topic{t}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let scenario = Scenario {
            topics: names.iter().map(|n| TopicSpec::new(n, 2_000)).collect(),
            consumers: (0..2_000).map(|m| ConsumerSpec::new(format!("consumer-{m}"), &refs)).collect(),
            ..Scenario::default()
        };
        let report = Report::new(&scenario);
        let started = std::time::Instant::now();
        let digests = PanelDigest::all(&report, &scenario);
        let json = serde_json::to_string(&digests).unwrap();
        let took = started.elapsed();
        eprintln!("digest of 4 panels: {} bytes of JSON, computed and serialized in {took:?}", json.len());
        assert!(json.len() < 4 * 2_000 * 250, "{} bytes", json.len());
    }

    #[test]
    fn a_server_panels_heading_names_the_assignor_as_the_broker_does() {
        assert_eq!(StrategyId::Classic(Strategy::Range).title(), "range");
        assert_eq!(StrategyId::Server(ServerAssignor::Uniform).title(), "uniform (server)");
        assert_eq!(StrategyId::Server(ServerAssignor::Range).title(), "range (server)");
    }

    #[test]
    fn names_say_how_many_are_left_out() {
        let all: Vec<String> = (0..25).map(|i| format!("m{i}")).collect();
        let names = Names::of(&all);
        assert_eq!(names.len(), 25);
        assert!(names.to_string().ends_with("m9 and 15 more"));
        assert_eq!(Names::of(&all[..2]).to_string(), "m0, m1");
    }

    #[test]
    fn a_profile_keeps_the_heaviest_and_the_lightest() {
        let sorted: Vec<u64> = (0..1000).rev().collect();
        let profile = sample(&sorted, 5);
        assert_eq!(profile, [999, 750, 500, 250, 0]);
        assert_eq!(sample(&[3, 2], 5), [3, 2]);
        assert_eq!(sample(&[], 5), Vec::<u64>::new());
    }
}

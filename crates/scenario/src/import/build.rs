//! From what the tables say about one group to a scenario: topics and partition counts, consumers
//! with their instance ids, what each owns now, the strategy. What the tool does not print is
//! inferred, and each inference becomes a note.
//!
//! The imported assignment is the group's state before its next rebalance, under every strategy:
//! the panel of the group's own strategy moves nothing for a settled group (checked here with the
//! core, and said in a note when it would), and every other panel shows what switching would move.
//! What "settled" means differs: sticky and cooperative-sticky keep any balanced assignment of
//! what members own; range and roundrobin ignore ownership and keep the assignment only when it is
//! their own answer for these member ids (instance ids first, KIP-345) and subscriptions, which
//! is why a range group whose assignment only fits narrower subscriptions gets them inferred.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;

use assignor::Strategy;

use super::read::{GroupMessage, GroupText, MemberRow, Text};
use super::{Assignment, Unread};
use assignor::consumer_group::ServerAssignor;

use crate::consumer_snapshot::closest_classic_strategy;
use crate::format::{default_strategies, ConsumerSpec, Previous, Scenario, TopicSpec, CONSUMER_PROTOCOL};
use crate::validate::{self, Problem};
use crate::Model;

/// What to import, and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The group to import; by default the first one with members or partitions.
    pub group: Option<String>,
    /// Where partition weights come from.
    pub weights: WeightSource,
}

/// Where the imported partitions' weights come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeightSource {
    /// No weights: load is counted in partitions.
    #[default]
    None,
    /// Each partition weighs its LAG (messages behind), from `--describe`.
    Lag,
}

/// A group imported as a scenario (serializable, its scenario in the binary form: the page's Import
/// dialog gets it from its compute worker, since inferring it runs the strategies).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Imported {
    /// The group's name as the tool printed it (empty if it never did).
    pub group: String,
    /// The group as a scenario file.
    #[serde(with = "crate::packed")]
    pub scenario: Scenario,
    /// What was inferred rather than read, one sentence each, for the page and `kap import`.
    pub notes: Vec<String>,
    /// Every line of the paste that could not be read.
    pub unread: Vec<Unread>,
}

/// Why a paste gives no scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportError {
    /// No `--describe` table or message was recognised.
    NothingRead,
    /// `Options::group` names a group the paste does not describe.
    NoSuchGroup {
        /// The name asked for.
        name: String,
        /// The groups the paste describes.
        groups: Vec<String>,
    },
    /// The group's partitions cannot be placed in topics: 3.8–3.9 print ASSIGNMENT without topic
    /// names, and no `--describe` table names them.
    NoTopicNames {
        /// The group's name.
        group: String,
    },
    /// Only `--members` without `--verbose`: members and their partition counts, not the partitions.
    NoPartitions {
        /// The group's name.
        group: String,
    },
    /// The group the paste describes does not exist (`Error: Consumer group 'x' does not exist.`).
    GroupDoesNotExist {
        /// The group's name.
        group: String,
    },
    /// The scenario built breaks a rule (a name Kafka would refuse, a partition count too large).
    Invalid(Vec<Problem>),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::NothingRead => {
                f.write_str("no kafka-consumer-groups.sh --describe output found (paste --describe, --members --verbose or --state)")
            }
            ImportError::NoSuchGroup { name, groups } => {
                write!(f, "no group {name:?} in this output; it describes {}", quoted_list(groups))
            }
            ImportError::NoTopicNames { group } => write!(
                f,
                "group {group:?}: Kafka 3.8 and 3.9 print ASSIGNMENT without topic names; paste the plain --describe \
                 output of the group too, which names each partition's topic"
            ),
            ImportError::NoPartitions { group } => write!(
                f,
                "group {group:?}: the output counts each member's partitions but does not list them; paste \
                 --describe or --members --verbose too"
            ),
            ImportError::GroupDoesNotExist { group } => write!(f, "group {group:?} does not exist on that cluster"),
            ImportError::Invalid(problems) => {
                let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
                write!(f, "the imported group breaks a rule: {}", messages.join("; "))
            }
        }
    }
}

impl std::error::Error for ImportError {}

fn quoted_list(names: &[String]) -> String {
    let names: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    names.join(", ")
}

/// Who owns which partition, and what is known about each member.
struct Owners {
    /// Members in the order the tool listed them (`--members` first, then `--describe`).
    members: Vec<String>,
    instance_ids: BTreeMap<String, String>,
    owned: BTreeMap<String, Vec<(String, u32)>>,
}

/// The phases of an import: choose the group, read who owns what, infer what the tool does not
/// print (topics' partition counts, the strategy lists, the subscriptions), check the result.
pub(super) fn build(text: &Text, options: &Options) -> Result<Imported, ImportError> {
    let group = chosen_group(text, options)?;
    let mut notes = other_groups(text, group);
    let owners = owners(group, &mut notes)?;
    notes.extend(group.messages.iter().filter_map(|(_, message)| message_note(*message)));
    let topics = topics(group, &owners, &mut notes);
    let consumed = consumed_topics(&topics, &owners, &mut notes);
    let consumer_protocol = uses_consumer_protocol(group);
    let (strategies, own_strategy) = strategies(group, consumer_protocol, &mut notes);
    let mut scenario = Scenario {
        // The members' current target is what they own: the server-side assignors start from it.
        protocol: consumer_protocol.then(|| CONSUMER_PROTOCOL.to_string()),
        remote_assignor: remote_assignor(group, consumer_protocol),
        title: if group.name.is_empty() { "Imported group".into() } else { format!("Imported group {}", group.name) },
        consumers: consumer_specs(&owners, &strategies, &|_| consumed.clone()),
        topics,
        previous: previous(&owners),
        ..Scenario::default()
    };
    if options.weights == WeightSource::Lag {
        weigh_by_lag(&mut scenario, group, &mut notes);
    }
    let errors = validate::errors(&scenario);
    if !errors.is_empty() {
        return Err(ImportError::Invalid(errors));
    }
    let subscriptions = infer_subscriptions(&mut scenario, &owners, &strategies, &consumed, own_strategy, &mut notes);
    if !scenario.consumers.is_empty() {
        notes.insert(0, subscriptions.to_string());
    }
    for line in &group.wrapped {
        notes.push(format!("{line} and the next were read as one row the terminal had wrapped"));
    }
    for (line, label) in &text.unknown_columns {
        notes.push(format!("{line}: column {label} is not one this importer knows; its values are skipped"));
    }
    notes.push("racks are not printed: no consumer has a client.rack and no replica racks are set".to_string());
    notes.push("JoinGroup order is not printed: members are in the order the tool listed them".to_string());
    let mut seen = BTreeSet::new();
    notes.retain(|note| seen.insert(note.clone()));
    scenario.notes = format!(
        "Imported from kafka-consumer-groups.sh output{}. Inferred: {}.",
        if group.name.is_empty() { String::new() } else { format!(" of group {}", group.name) },
        notes.join("; ")
    );
    Ok(Imported { group: group.name.clone(), scenario, notes, unread: text.unread.clone() })
}

/// The group `options` names, else the first with members or partitions.
fn chosen_group<'a>(text: &'a Text, options: &Options) -> Result<&'a GroupText, ImportError> {
    let group = match &options.group {
        Some(name) => text.groups.iter().find(|g| &g.name == name).ok_or_else(|| ImportError::NoSuchGroup {
            name: name.clone(),
            groups: text.groups.iter().map(|g| g.name.clone()).collect(),
        })?,
        None => text
            .groups
            .iter()
            .find(|g| !g.members.is_empty() || !g.partitions.is_empty())
            .or_else(|| text.groups.first())
            .ok_or(ImportError::NothingRead)?,
    };
    let describes_nothing = group.members.is_empty() && group.partitions.is_empty() && group.state.is_none();
    if describes_nothing && group.messages.iter().any(|(_, m)| *m == GroupMessage::DoesNotExist) {
        return Err(ImportError::GroupDoesNotExist { group: group.name.clone() });
    }
    Ok(group)
}

/// A note naming the other groups the output describes, if any.
fn other_groups(text: &Text, group: &GroupText) -> Vec<String> {
    let others: Vec<String> = text
        .groups
        .iter()
        .filter(|g| g.name != group.name && (!g.members.is_empty() || !g.partitions.is_empty() || g.state.is_some()))
        .map(|g| g.name.clone())
        .collect();
    if others.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "the output also describes {}; this is {} (another group can be chosen)",
        quoted_list(&others),
        display_name(&group.name)
    )]
}

fn message_note(message: GroupMessage) -> Option<String> {
    match message {
        GroupMessage::Rebalancing => {
            Some("the group was rebalancing when it was described: its assignment may be incomplete".to_string())
        }
        GroupMessage::NoActiveMembers => {
            Some("the group has no active members: the scenario has its topics and no consumers (add some)".to_string())
        }
        GroupMessage::DoesNotExist => None,
    }
}

/// The topics some member owns a partition of; the others only have committed offsets left.
fn consumed_topics(topics: &[TopicSpec], owners: &Owners, notes: &mut Vec<String>) -> Vec<String> {
    let owned: BTreeSet<&str> = owners.owned.values().flatten().map(|(t, _)| t.as_str()).collect();
    let (consumed, unowned): (Vec<String>, Vec<String>) =
        topics.iter().map(|t| t.name.clone()).partition(|t| owned.contains(t.as_str()));
    if !unowned.is_empty() && !owners.members.is_empty() {
        notes.push(format!(
            "no member owns a partition of {}: taken as topics the group no longer subscribes to (only committed \
             offsets remain)",
            quoted_list(&unowned)
        ));
    }
    consumed
}

/// What every member owns now, as the assignment before the next rebalance under every strategy.
fn previous(owners: &Owners) -> Option<Previous> {
    // One history for every strategy, shared as a snapshot's is.
    let owned = std::sync::Arc::new(owners.owned.clone());
    (!owners.owned.is_empty()).then(|| Previous {
        generation: 1,
        generations: BTreeMap::new(),
        assignments: Strategy::ALL.iter().map(|s| (s.name().to_string(), std::sync::Arc::clone(&owned))).collect(),
        // `--describe` names topics only, never their ids.
        deleted_topic_ids: BTreeMap::new(),
    })
}

fn consumer_specs(
    owners: &Owners,
    strategies: &[String],
    subscription: &dyn Fn(&str) -> Vec<String>,
) -> Vec<ConsumerSpec> {
    owners
        .members
        .iter()
        .map(|id| ConsumerSpec {
            id: id.clone(),
            instance_id: owners.instance_ids.get(id).cloned(),
            rack: None,
            topics: subscription(id),
            patterns: Vec::new(),
            strategies: strategies.to_vec(),
        })
        .collect()
}

/// Subscriptions are not printed. Every member subscribing to every topic the group consumes is the
/// common case; if the group's own strategy would then move partitions of a settled group, each
/// member subscribing to the topics it holds may be what explains the assignment. Returns the
/// inference made.
fn infer_subscriptions(
    scenario: &mut Scenario,
    owners: &Owners,
    strategies: &[String],
    consumed: &[String],
    own_strategy: Option<Strategy>,
    notes: &mut Vec<String>,
) -> &'static str {
    let every_topic = "each member subscribes to the topics the group consumes (subscriptions are not printed)";
    let Some(strategy) = own_strategy else {
        if !owners.owned.is_empty() {
            let settled: Vec<&str> =
                Strategy::ALL.iter().filter(|&&s| moves(scenario, s) == Some(0)).map(|s| s.name()).collect();
            if !settled.is_empty() {
                notes.push(format!(
                    "of the four strategies, {} would keep this assignment as it is",
                    settled.join(", ")
                ));
            }
        }
        return every_topic;
    };
    let Some(moved) = moves(scenario, strategy).filter(|&n| n > 0) else { return every_topic };
    let held = |id: &str| -> Vec<String> {
        let mine: BTreeSet<&str> = owners.owned.get(id).into_iter().flatten().map(|(t, _)| t.as_str()).collect();
        if mine.is_empty() {
            consumed.to_vec()
        } else {
            consumed.iter().filter(|t| mine.contains(t.as_str())).cloned().collect()
        }
    };
    let narrower = Scenario { consumers: consumer_specs(owners, strategies, &held), ..scenario.clone() };
    if narrower.consumers != scenario.consumers && moves(&narrower, strategy) == Some(0) {
        *scenario = narrower;
        return "each member subscribes to the topics it holds partitions of: with every member on every topic, the \
                group's own strategy would not have produced this assignment";
    }
    notes.push(format!(
        "{strategy} would move {moved} partition(s) from this assignment at the next rebalance: the group had not \
         settled, or its members subscribe to other topics than inferred"
    ));
    every_topic
}

fn display_name(name: &str) -> String {
    if name.is_empty() {
        "the unnamed group".to_string()
    } else {
        format!("{name:?}")
    }
}

/// The members and what each owns. `--members --verbose` lists each member's partitions; the rows
/// of `--describe` name each partition's owner, for members whose list is not printed (no
/// `--verbose`, or 3.8–3.9's lists without topic names). `--members` adds members without
/// partitions and the instance ids.
fn owners(group: &GroupText, notes: &mut Vec<String>) -> Result<Owners, ImportError> {
    let mut members: Vec<String> = Vec::new();
    let mut listed: HashSet<String> = HashSet::new();
    let mut instance_ids = BTreeMap::new();
    let mut described: BTreeMap<String, Vec<(String, u32)>> = BTreeMap::new();
    for row in &group.members {
        if listed.insert(row.consumer_id.clone()) {
            members.push(row.consumer_id.clone());
        }
        if let Some(instance) = row.instance_id.as_ref().filter(|i| !i.is_empty()) {
            instance_ids.insert(row.consumer_id.clone(), instance.clone());
        }
    }
    for row in &group.partitions {
        let Some(id) = &row.consumer_id else { continue };
        if listed.insert(id.clone()) {
            members.push(id.clone());
        }
        described.entry(id.clone()).or_default().push((row.topic.clone(), row.partition));
    }
    for id in &group.idle {
        if listed.insert(id.clone()) {
            members.push(id.clone());
        }
    }
    let known_topics: BTreeSet<&str> = group.partitions.iter().map(|r| r.topic.as_str()).collect();
    let mut owned = described.clone();
    let mut unresolved = Vec::new();
    for row in &group.members {
        let from_describe = described.get(&row.consumer_id);
        match &row.assignment {
            Some(Assignment::Named(list)) => {
                let listed: BTreeSet<&(String, u32)> = list.iter().collect();
                if from_describe.is_some_and(|d| d.iter().collect::<BTreeSet<_>>() != listed) {
                    notes.push(disagreement(row));
                }
                owned.insert(row.consumer_id.clone(), list.clone());
            }
            Some(Assignment::Unnamed(lists)) => {
                let count: usize = lists.iter().map(Vec::len).sum();
                match from_describe {
                    Some(described) if described.len() == count => {}
                    Some(_) => notes.push(disagreement(row)),
                    None if count == 0 => {}
                    // One topic known: the lists can only be its partitions.
                    None if known_topics.len() == 1 && lists.len() == 1 => {
                        let topic = known_topics.iter().next().map(|t| t.to_string()).unwrap_or_default();
                        owned.insert(row.consumer_id.clone(), lists[0].iter().map(|&p| (topic.clone(), p)).collect());
                    }
                    None => unresolved.push(row.consumer_id.clone()),
                }
            }
            None if from_describe.is_none() && row.partitions > 0 => unresolved.push(row.consumer_id.clone()),
            None => {}
        }
        let found = owned.get(&row.consumer_id).map_or(0, Vec::len);
        if found != row.partitions as usize && !unresolved.contains(&row.consumer_id) {
            notes.push(format!(
                "{} is listed with {} partitions but {found} were found for it",
                row.consumer_id, row.partitions
            ));
        }
    }
    if !unresolved.is_empty() {
        if owned.values().all(Vec::is_empty) {
            let topicless = group.members.iter().any(|m| matches!(m.assignment, Some(Assignment::Unnamed(_))));
            let name = group.name.clone();
            return Err(if topicless {
                ImportError::NoTopicNames { group: name }
            } else {
                ImportError::NoPartitions { group: name }
            });
        }
        notes.push(format!(
            "the partitions of {} are unknown (paste --describe or --members --verbose for them): imported as owning none",
            quoted_list(&unresolved)
        ));
    }
    owned.retain(|_, list| !list.is_empty());
    Ok(Owners { members, instance_ids, owned })
}

fn disagreement(row: &MemberRow) -> String {
    format!(
        "--describe and --members disagree on what {} holds (the group rebalanced between the runs?): the \
         --members list is used",
        row.consumer_id
    )
}

/// The topics, each with as many partitions as the highest partition seen (the tool prints no
/// partition counts).
fn topics(group: &GroupText, owners: &Owners, notes: &mut Vec<String>) -> Vec<TopicSpec> {
    let mut seen: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    for row in &group.partitions {
        seen.entry(row.topic.clone()).or_default().insert(row.partition);
    }
    for (topic, partition) in owners.owned.values().flatten() {
        seen.entry(topic.clone()).or_default().insert(*partition);
    }
    let mut gaps = Vec::new();
    let topics = seen
        .iter()
        .map(|(name, partitions)| {
            let count = partitions.iter().next_back().map_or(0, |&p| p.saturating_add(1));
            let missing = (count as usize).saturating_sub(partitions.len());
            if missing > 0 {
                gaps.push(format!("{name} ({missing})"));
            }
            TopicSpec::new(name.clone(), count)
        })
        .collect::<Vec<_>>();
    if !topics.is_empty() {
        notes.push(
            "each topic has as many partitions as its highest partition number seen (partition counts are not printed)"
                .to_string(),
        );
    }
    if !gaps.is_empty() {
        notes.push(format!(
            "some partitions appear nowhere (no owner, no committed offset): {}; they are kept as partitions of \
             their topic",
            gaps.join(", ")
        ));
    }
    topics
}

/// A consumer-protocol group (KIP-848): epochs are printed as numbers only for such groups, and
/// only they have the Assigning and Reconciling states or the server-side `uniform` assignor.
fn uses_consumer_protocol(group: &GroupText) -> bool {
    group.members.iter().any(|m| m.epoch.is_some())
        || group.state.as_ref().is_some_and(|s| {
            s.group_epoch.is_some()
                || matches!(s.state.as_str(), "Assigning" | "Reconciling")
                || s.strategy.as_deref() == Some("uniform")
        })
}

/// `group.remote.assignor` of a consumer-protocol group, left out when it is the default `uniform`
/// (the tool prints the assignor as ASSIGNMENT-STRATEGY).
fn remote_assignor(group: &GroupText, consumer_protocol: bool) -> Option<String> {
    let printed = group.state.as_ref().and_then(|s| s.strategy.as_deref())?;
    (consumer_protocol && printed != ServerAssignor::Uniform.name()).then(|| printed.to_string())
}

/// Each consumer's `partition.assignment.strategy`, and the strategy whose panel is the group's own.
fn strategies(group: &GroupText, consumer_protocol: bool, notes: &mut Vec<String>) -> (Vec<String>, Option<Strategy>) {
    let printed = group.state.as_ref().and_then(|s| s.strategy.clone());
    if consumer_protocol {
        let assignor = printed.unwrap_or_else(|| "uniform".to_string());
        let server = if assignor == "range" { ServerAssignor::Range } else { ServerAssignor::Uniform };
        let classic = closest_classic_strategy(server);
        notes.push(match server {
            // The server RangeAssignor gives the client RangeAssignor's (non-rack-aware) answer.
            ServerAssignor::Range => format!(
                "the group uses the consumer protocol (KIP-848, group.protocol=consumer) with the server-side range \
                 assignor; each member's partition.assignment.strategy is [{classic}], whose assignment is the server \
                 range's, for the classic panels"
            ),
            ServerAssignor::Uniform => format!(
                "the group uses the consumer protocol (KIP-848, group.protocol=consumer) with the server-side {assignor} \
                 assignor; each member's partition.assignment.strategy is [{classic}], the classic strategy \
                 closest to it (incremental, keeps what members own), for the classic panels"
            ),
        });
        return (vec![classic.name().to_string()], Some(classic));
    }
    match printed {
        Some(name) => match name.parse::<Strategy>() {
            Ok(strategy) => {
                notes.push(format!(
                    "each member's partition.assignment.strategy is [{strategy}], the strategy the group uses (the \
                     tool prints only the chosen one)"
                ));
                (vec![strategy.name().to_string()], Some(strategy))
            }
            Err(_) => {
                notes.push(format!(
                    "the group uses the assignor {name:?}, not one of Kafka's four: the consumers keep Kafka 3.0+'s \
                     default [range, cooperative-sticky]"
                ));
                (default_strategies(), None)
            }
        },
        None if group.state.is_some() => {
            notes.push(
                "an empty group has no strategy: the consumers keep Kafka 3.0+'s default [range, cooperative-sticky]"
                    .to_string(),
            );
            (default_strategies(), None)
        }
        None => {
            notes.push(
                "the strategy is not known (paste --describe --state too): the consumers keep Kafka 3.0+'s default \
                 [range, cooperative-sticky]"
                    .to_string(),
            );
            (default_strategies(), None)
        }
    }
}

/// Partitions `strategy` would move at the next rebalance of `scenario`; `None` if it cannot run.
fn moves(scenario: &Scenario, strategy: Strategy) -> Option<usize> {
    let model = Model::new(scenario).ok()?;
    model.rebalance(strategy).ok().map(|r| r.diff.moved.len())
}

/// Each partition's weight is its LAG; partitions without one (no committed offset) weigh nothing
/// known and keep the default.
fn weigh_by_lag(scenario: &mut Scenario, group: &GroupText, notes: &mut Vec<String>) {
    let mut weighed = 0;
    let index: HashMap<String, usize> = scenario.topics.iter().enumerate().map(|(i, t)| (t.name.clone(), i)).collect();
    for row in &group.partitions {
        let topic = index.get(&row.topic).and_then(|&i| scenario.topics.get_mut(i));
        let (Some(lag), Some(topic)) = (row.lag, topic) else {
            continue;
        };
        topic.partition_weights.insert(row.partition, u64::try_from(lag).unwrap_or(0));
        weighed += 1;
    }
    // A topic whose partitions all lag by the same amount needs only the topic's weight.
    for topic in &mut scenario.topics {
        let values: BTreeSet<u64> = topic.partition_weights.values().copied().collect();
        if topic.partition_weights.len() == topic.partitions as usize && values.len() == 1 {
            topic.weight = values.into_iter().next();
            topic.partition_weights.clear();
        }
    }
    scenario.view.weight_unit = "LAG".to_string();
    notes.push(format!("weights are each partition's LAG ({weighed} partitions; a partition without a LAG weighs 1)"));
}

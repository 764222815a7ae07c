//! Edits to a scenario as a person makes them on the page: a form field changed, a row added or
//! removed, a rebalance trigger pressed. Forms name topics and consumers by their position in the
//! scenario; a trigger becomes the rebalance [`Event`] it stands for, which names them.
//!
//! An edit makes its change and [`validate`] judges the result: the rules live there, once, for
//! the page and for `kap` alike. An edit refuses on its own only what no single scenario shows: a
//! position past the end, a topic losing partitions, a subscription made twice.
//!
//! ```
//! use scenario::edit::{Edit, Field};
//! use scenario::presets;
//!
//! let scenario = presets::all()[0].scenario().unwrap();
//! let rename = Edit::RenameTopic { topic: 0, name: "orders".into() };
//! assert_eq!(rename.field(), Some(Field::TopicName(0)));
//! assert_eq!(rename.apply(&scenario).unwrap().topics[0].name, "orders");
//!
//! let clash = Edit::RenameTopic { topic: 0, name: "T2".into() };
//! assert_eq!(clash.apply(&scenario).unwrap_err().reason(), r#"there is already a topic "T2""#);
//! ```

use std::collections::HashSet;
use std::fmt;

use assignor::consumer_group::ServerAssignor;

use crate::events::Event;
use crate::format::{ConsumerSpec, ReplicaLayout, Scenario, TopicSpec, CONSUMER_PROTOCOL};
use crate::validate::{self, Location, Problem};

/// One change to a scenario, as the page's forms and buttons make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// A topic of three partitions, named `t<n>` with the smallest free `n`.
    AddTopic,
    /// The topic goes, and every subscription to it by name.
    RemoveTopic {
        /// Its position.
        topic: usize,
    },
    /// The topic gets a new name; subscriptions by name follow it.
    RenameTopic {
        /// Its position.
        topic: usize,
        /// The new name.
        name: String,
    },
    /// The topic's partition count; rack overrides of partitions past the new count go.
    SetPartitions {
        /// Its position.
        topic: usize,
        /// The new count.
        partitions: u32,
    },
    /// The replication factor of the topic's replica layout; 0 removes the layout.
    SetReplicationFactor {
        /// Its position.
        topic: usize,
        /// Replicas per partition.
        factor: u32,
    },
    /// The racks of the topic's replica layout; none removes the layout.
    SetReplicaRacks {
        /// Its position.
        topic: usize,
        /// The racks, in layout order (`None`: a broker without a rack).
        racks: Vec<Option<String>>,
    },
    /// One partition's replica racks, overriding the layout.
    SetPartitionRacks {
        /// The topic's position.
        topic: usize,
        /// The partition number.
        partition: u32,
        /// Its replicas' racks (`None` in the list: a broker without a rack); `None` returns the
        /// partition to the layout.
        racks: Option<Vec<Option<String>>>,
    },
    /// A consumer configured like the last one, without its rack, named `C<n>` with the smallest
    /// free `n`.
    AddConsumer,
    /// A copy of the consumer right after it, named `<id>-<n>`, without its `group.instance.id`
    /// (the coordinator fences a second member with the same one, KIP-345).
    DuplicateConsumer {
        /// Its position.
        consumer: usize,
    },
    /// The consumer's `member.id`.
    RenameConsumer {
        /// Its position.
        consumer: usize,
        /// The new id.
        id: String,
    },
    /// The consumer's `group.instance.id` (`None`: a dynamic member).
    SetInstanceId {
        /// Its position.
        consumer: usize,
        /// The new instance id.
        instance_id: Option<String>,
    },
    /// The consumer's `client.rack`.
    SetRack {
        /// Its position.
        consumer: usize,
        /// The new rack.
        rack: Option<String>,
    },
    /// The consumer's `partition.assignment.strategy` list.
    SetStrategies {
        /// Its position.
        consumer: usize,
        /// Strategy names, preferred first.
        strategies: Vec<String>,
    },
    /// The consumer's pattern subscriptions.
    SetPatterns {
        /// Its position.
        consumer: usize,
        /// The patterns.
        patterns: Vec<String>,
    },
    /// The consumer subscribes to the topic by name, or stops subscribing to it.
    ToggleSubscription {
        /// The consumer's position.
        consumer: usize,
        /// The topic's position.
        topic: usize,
    },
    /// The consumer subscribes to each of these topics by name, or stops subscribing to them: a
    /// topic picker's "all" or "none", one rebalance.
    Subscribe {
        /// The consumer's position.
        consumer: usize,
        /// The topics' positions.
        topics: Vec<usize>,
        /// Subscribe (or stop).
        subscribed: bool,
    },
    /// [`Event::Join`]: another instance of the last consumer's deployment (same configuration and
    /// rack) joins, named `C<n>` with the smallest free `n`.
    Join,
    /// [`Event::Leave`]: the consumer crashes or leaves.
    Leave {
        /// Its position.
        consumer: usize,
    },
    /// [`Event::AddPartitions`]: the topic grows by as many partitions as it has, up to three.
    GrowTopic {
        /// Its position.
        topic: usize,
    },
    /// [`Event::CreateTopic`]: a topic of three partitions is created, named after the first
    /// subscription pattern so that the pattern picks it up (`new-topic` when there is none).
    CreateTopic,
    /// Every consumer's `group.protocol`: the consumer protocol (KIP-848), or classic, which takes
    /// `group.remote.assignor` away (the Java client refuses it on the classic protocol).
    SetGroupProtocol {
        /// Whether the group runs the consumer protocol.
        consumer: bool,
    },
    /// Every consumer's `group.remote.assignor` (uniform, the broker's default, is left out).
    SetRemoteAssignor {
        /// The server-side assignor.
        assignor: ServerAssignor,
    },
    /// The topic's id, to reproduce a cluster's (`None`: the id derived from its name).
    SetTopicId {
        /// Its position.
        topic: usize,
        /// The id as typed.
        id: Option<String>,
    },
}

/// The form field an edit changes. Edits of one field in a row (typing `12` into a partition
/// count) are one rebalance and one undo step on the page, not one per keystroke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The name of the topic at this position.
    TopicName(usize),
    /// Its partition count.
    Partitions(usize),
    /// Its replication factor.
    ReplicationFactor(usize),
    /// Its replica racks.
    ReplicaRacks(usize),
    /// The replica racks of one of its partitions.
    PartitionRacks(usize, u32),
    /// The `member.id` of the consumer at this position.
    ConsumerId(usize),
    /// Its `group.instance.id`.
    InstanceId(usize),
    /// Its `client.rack`.
    Rack(usize),
    /// Its `partition.assignment.strategy`.
    Strategies(usize),
    /// Its pattern subscriptions.
    Patterns(usize),
    /// The id of the topic at this position.
    TopicId(usize),
}

/// The most characters a list field (racks, strategies, patterns) takes.
pub const MAX_LIST_FIELD: usize = 65_536;
/// The most characters a number field takes (its digits are checked before it is parsed).
pub const MAX_NUMBER_FIELD: usize = 32;

impl Field {
    /// The most characters this field takes: its value's own limit, or the list limit. Longer
    /// input is refused before anything looks at it.
    pub fn max_len(self) -> usize {
        match self {
            Field::TopicName(_) => validate::MAX_TOPIC_NAME,
            Field::ConsumerId(_) => validate::MAX_ID,
            Field::InstanceId(_) => validate::MAX_TOPIC_NAME,
            Field::Rack(_) => validate::MAX_RACK,
            Field::Partitions(_) | Field::ReplicationFactor(_) => MAX_NUMBER_FIELD,
            // Longer than any `Uuid` text, so that the refusal is Kafka's "too long".
            Field::TopicId(_) => MAX_NUMBER_FIELD,
            Field::ReplicaRacks(_) | Field::PartitionRacks(..) | Field::Strategies(_) | Field::Patterns(_) => {
                MAX_LIST_FIELD
            }
        }
    }

    /// Where `validate` locates a problem of this field's value.
    pub fn location(self) -> Location {
        match self {
            Field::TopicName(index) => Location::Topic { index, field: "name" },
            Field::Partitions(index) => Location::Topic { index, field: "partitions" },
            Field::ReplicationFactor(index) | Field::ReplicaRacks(index) => {
                Location::Topic { index, field: "replicas" }
            }
            Field::PartitionRacks(index, _) => Location::Topic { index, field: "racks" },
            Field::ConsumerId(index) => Location::Consumer { index, field: "id" },
            Field::InstanceId(index) => Location::Consumer { index, field: "instance_id" },
            Field::Rack(index) => Location::Consumer { index, field: "rack" },
            Field::Strategies(index) => Location::Consumer { index, field: "strategies" },
            Field::Patterns(index) => Location::Consumer { index, field: "patterns" },
            Field::TopicId(index) => Location::Topic { index, field: "id" },
        }
    }
}

/// Why an edit or an event is refused; the scenario stays as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// No topic at this position.
    NoTopicAt(usize),
    /// No consumer at this position.
    NoConsumerAt(usize),
    /// No topic of this name.
    UnknownTopic(String),
    /// No consumer of this id.
    UnknownConsumer(String),
    /// Kafka adds partitions to a topic and never removes any.
    NotMorePartitions {
        /// The topic.
        topic: String,
        /// Its partitions now.
        current: u32,
    },
    /// The consumer subscribes to the topic already.
    AlreadySubscribed {
        /// The consumer.
        consumer: String,
        /// The topic.
        topic: String,
    },
    /// The consumer does not subscribe to the topic by name (perhaps by pattern).
    NotSubscribed {
        /// The consumer.
        consumer: String,
        /// The topic.
        topic: String,
    },
    /// Typed into a partition count, but not a count.
    NotACount(String),
    /// The edited scenario breaks a rule of [`validate`]: the first error, with where it is.
    Invalid(Problem),
}

impl EditError {
    /// What is wrong, without where: for a page that shows it beside the field it concerns.
    pub fn reason(&self) -> String {
        match self {
            EditError::Invalid(problem) => problem.message.clone(),
            other => other.to_string(),
        }
    }

    /// Where the problem is, when a rule of [`validate`] names it.
    pub fn location(&self) -> Option<&Location> {
        match self {
            EditError::Invalid(problem) => Some(&problem.location),
            _ => None,
        }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::NoTopicAt(index) => write!(f, "there is no topic {}", index + 1),
            EditError::NoConsumerAt(index) => write!(f, "there is no consumer {}", index + 1),
            EditError::UnknownTopic(name) => write!(f, "there is no topic {name:?}"),
            EditError::UnknownConsumer(id) => write!(f, "there is no consumer {id:?}"),
            EditError::NotMorePartitions { topic, current } => {
                write!(f, "{topic} has {current} partitions; Kafka only adds partitions")
            }
            EditError::AlreadySubscribed { consumer, topic } => write!(f, "{consumer} already subscribes to {topic}"),
            EditError::NotSubscribed { consumer, topic } => {
                write!(f, "{consumer} does not subscribe to {topic} by name")
            }
            EditError::NotACount(text) => write!(f, "{text:?} is not a partition count"),
            EditError::Invalid(problem) => write!(f, "{problem}"),
        }
    }
}

impl std::error::Error for EditError {}

impl From<Problem> for EditError {
    fn from(problem: Problem) -> Self {
        EditError::Invalid(problem)
    }
}

impl Edit {
    /// The form field this edit changes; `None` for one-off edits (buttons, checkboxes), each its
    /// own rebalance.
    pub fn field(&self) -> Option<Field> {
        match *self {
            Edit::RenameTopic { topic, .. } => Some(Field::TopicName(topic)),
            Edit::SetPartitions { topic, .. } => Some(Field::Partitions(topic)),
            Edit::SetReplicationFactor { topic, .. } => Some(Field::ReplicationFactor(topic)),
            Edit::SetReplicaRacks { topic, .. } => Some(Field::ReplicaRacks(topic)),
            Edit::SetPartitionRacks { topic, partition, .. } => Some(Field::PartitionRacks(topic, partition)),
            Edit::RenameConsumer { consumer, .. } => Some(Field::ConsumerId(consumer)),
            Edit::SetInstanceId { consumer, .. } => Some(Field::InstanceId(consumer)),
            Edit::SetRack { consumer, .. } => Some(Field::Rack(consumer)),
            Edit::SetStrategies { consumer, .. } => Some(Field::Strategies(consumer)),
            Edit::SetPatterns { consumer, .. } => Some(Field::Patterns(consumer)),
            Edit::SetTopicId { topic, .. } => Some(Field::TopicId(topic)),
            Edit::AddTopic
            | Edit::RemoveTopic { .. }
            | Edit::AddConsumer
            | Edit::DuplicateConsumer { .. }
            | Edit::ToggleSubscription { .. }
            | Edit::Subscribe { .. }
            | Edit::Join
            | Edit::Leave { .. }
            | Edit::GrowTopic { .. }
            | Edit::CreateTopic
            | Edit::SetGroupProtocol { .. }
            | Edit::SetRemoteAssignor { .. } => None,
        }
    }

    /// `base` with this edit made, not yet rebalanced; or why it is refused.
    pub fn apply(&self, base: &Scenario) -> Result<Scenario, EditError> {
        let mut next = base.clone();
        let s = &mut next;
        match self {
            Edit::AddTopic => {
                let name = unused(numbered("t"), |n| s.topics.iter().any(|t| t.name == n));
                s.topics.push(TopicSpec::new(name, 3));
            }
            Edit::RemoveTopic { topic } => {
                let removed = topic_mut(s, *topic)?.name.clone();
                s.topics.remove(*topic);
                for c in &mut s.consumers {
                    c.topics.retain(|t| *t != removed);
                }
            }
            Edit::RenameTopic { topic, name } => {
                let old = std::mem::replace(&mut topic_mut(s, *topic)?.name, name.clone());
                // Subscriptions follow the topic; what was owned of it is gone (a new topic).
                for t in s.consumers.iter_mut().flat_map(|c| c.topics.iter_mut()) {
                    if *t == old {
                        *t = name.clone();
                    }
                }
            }
            Edit::SetPartitions { topic, partitions } => {
                let t = topic_mut(s, *topic)?;
                t.partitions = *partitions;
                t.rack_overrides.retain(|p, _| p < partitions);
            }
            Edit::SetReplicationFactor { topic, factor } => {
                let t = topic_mut(s, *topic)?;
                let mut racks = t.replicas.take().map(|l| l.racks).unwrap_or_default();
                if racks.is_empty() && *factor > 0 {
                    racks = ["a", "b", "c"].map(|r| Some(r.to_string())).to_vec();
                }
                t.replicas = (*factor > 0 && !racks.is_empty()).then_some(ReplicaLayout { factor: *factor, racks });
            }
            Edit::SetReplicaRacks { topic, racks } => {
                let t = topic_mut(s, *topic)?;
                let factor = t.replicas.as_ref().map_or(0, |l| l.factor).max(1);
                t.replicas = (!racks.is_empty()).then(|| ReplicaLayout { factor, racks: racks.clone() });
            }
            Edit::SetPartitionRacks { topic, partition, racks } => {
                let t = topic_mut(s, *topic)?;
                match racks {
                    Some(racks) => t.rack_overrides.insert(*partition, racks.clone()),
                    None => t.rack_overrides.remove(partition),
                };
            }
            Edit::AddConsumer => {
                // Its rack is typed in the form; a consumer that joins (`Join`) runs beside the last one.
                let consumer = ConsumerSpec { rack: None, ..newcomer(s) };
                s.consumers.push(consumer);
            }
            Edit::DuplicateConsumer { consumer } => {
                let original = consumer_mut(s, *consumer)?.clone();
                let id = unused(numbered(&format!("{}-", original.id)), |n| s.consumers.iter().any(|c| c.id == n));
                s.consumers.insert(*consumer + 1, ConsumerSpec { id, instance_id: None, ..original });
            }
            Edit::RenameConsumer { consumer, id } => consumer_mut(s, *consumer)?.id = id.clone(),
            Edit::SetInstanceId { consumer, instance_id } => {
                consumer_mut(s, *consumer)?.instance_id = instance_id.clone();
            }
            Edit::SetRack { consumer, rack } => consumer_mut(s, *consumer)?.rack = rack.clone(),
            Edit::SetStrategies { consumer, strategies } => consumer_mut(s, *consumer)?.strategies = strategies.clone(),
            Edit::SetPatterns { consumer, patterns } => consumer_mut(s, *consumer)?.patterns = patterns.clone(),
            Edit::ToggleSubscription { consumer, topic } => {
                let topic = topic_mut(s, *topic)?.name.clone();
                let c = consumer_mut(s, *consumer)?;
                if c.topics.contains(&topic) {
                    c.topics.retain(|t| *t != topic);
                } else {
                    c.topics.push(topic);
                }
            }
            Edit::Subscribe { consumer, topics, subscribed } => {
                let names =
                    topics.iter().map(|&t| Ok(topic_mut(s, t)?.name.clone())).collect::<Result<Vec<_>, EditError>>()?;
                let chosen: HashSet<&String> = names.iter().collect();
                let c = consumer_mut(s, *consumer)?;
                c.topics.retain(|t| !chosen.contains(t));
                if *subscribed {
                    let mut once = HashSet::new();
                    c.topics.extend(names.iter().filter(|name| once.insert(*name)).cloned());
                }
            }
            Edit::Join => return Event::Join { consumer: newcomer(s) }.apply(base),
            Edit::Leave { consumer } => {
                return Event::Leave { consumer: consumer_mut(s, *consumer)?.id.clone() }.apply(base);
            }
            Edit::GrowTopic { topic } => {
                let t = topic_mut(s, *topic)?;
                let partitions = t.partitions.saturating_add(t.partitions.clamp(1, 3));
                return Event::AddPartitions { topic: t.name.clone(), partitions }.apply(base);
            }
            Edit::CreateTopic => {
                let pattern = s.consumers.iter().flat_map(|c| c.patterns.first()).next();
                let prefix = pattern
                    .map(|p| p.trim_end_matches(".*").trim_end_matches('*'))
                    .filter(|p| !p.is_empty())
                    .unwrap_or("new-");
                let first = format!("{prefix}topic");
                let names = std::iter::once(first.clone()).chain((1..).map(|n| format!("{first}{n}")));
                let name = unused(names, |n| s.topics.iter().any(|t| t.name == n));
                return Event::CreateTopic { topic: TopicSpec::new(name, 3) }.apply(base);
            }
            Edit::SetGroupProtocol { consumer } => {
                s.protocol = consumer.then(|| CONSUMER_PROTOCOL.to_string());
                if !consumer {
                    s.remote_assignor = None;
                }
            }
            Edit::SetRemoteAssignor { assignor } => {
                s.remote_assignor = (*assignor != ServerAssignor::Uniform).then(|| assignor.name().to_string());
            }
            Edit::SetTopicId { topic, id } => topic_mut(s, *topic)?.id = id.clone(),
        }
        Ok(validate::checked(next)?)
    }
}

/// The consumer a new one copies: the last one under a free id, without its `group.instance.id`;
/// in an empty group, one subscribing to every topic.
fn newcomer(s: &Scenario) -> ConsumerSpec {
    let id = unused(numbered("C"), |n| s.consumers.iter().any(|c| c.id == n));
    let template = s
        .consumers
        .last()
        .cloned()
        .unwrap_or_else(|| ConsumerSpec::new("", &s.topics.iter().map(|t| t.name.as_str()).collect::<Vec<_>>()));
    ConsumerSpec { id, instance_id: None, ..template }
}

/// `prefix0`, `prefix1`, …
fn numbered(prefix: &str) -> impl Iterator<Item = String> + '_ {
    (0..).map(move |i| format!("{prefix}{i}"))
}

/// The first of `names` not taken.
fn unused(mut names: impl Iterator<Item = String>, taken: impl Fn(&str) -> bool) -> String {
    names.find(|n| !taken(n)).unwrap_or_default()
}

pub(crate) fn topic_mut(s: &mut Scenario, index: usize) -> Result<&mut TopicSpec, EditError> {
    s.topics.get_mut(index).ok_or(EditError::NoTopicAt(index))
}

pub(crate) fn consumer_mut(s: &mut Scenario, index: usize) -> Result<&mut ConsumerSpec, EditError> {
    s.consumers.get_mut(index).ok_or(EditError::NoConsumerAt(index))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::validate::MAX_TOPIC_PARTITIONS;

    /// Range's imbalance example: T1 (5) and T2 (3), C1 and C2 subscribing to both.
    fn two_topics() -> Scenario {
        Scenario {
            topics: vec![TopicSpec::new("T1", 5), TopicSpec::new("T2", 3)],
            consumers: vec![ConsumerSpec::new("C1", &["T1", "T2"]), ConsumerSpec::new("C2", &["T1", "T2"])],
            ..Scenario::default()
        }
    }

    fn applied(scenario: &Scenario, edit: Edit) -> Scenario {
        edit.apply(scenario).unwrap_or_else(|e| panic!("{edit:?}: {e}"))
    }

    fn names(scenario: &Scenario) -> (Vec<&str>, Vec<&str>) {
        (
            scenario.topics.iter().map(|t| t.name.as_str()).collect(),
            scenario.consumers.iter().map(|c| c.id.as_str()).collect(),
        )
    }

    #[test]
    fn each_input_has_its_own_field_and_buttons_have_none() {
        let fields = [
            (Edit::RenameTopic { topic: 1, name: "x".into() }, Some(Field::TopicName(1))),
            (Edit::SetPartitions { topic: 1, partitions: 2 }, Some(Field::Partitions(1))),
            (Edit::SetReplicationFactor { topic: 1, factor: 2 }, Some(Field::ReplicationFactor(1))),
            (Edit::SetReplicaRacks { topic: 1, racks: vec![] }, Some(Field::ReplicaRacks(1))),
            (Edit::SetPartitionRacks { topic: 1, partition: 4, racks: None }, Some(Field::PartitionRacks(1, 4))),
            (Edit::RenameConsumer { consumer: 2, id: "x".into() }, Some(Field::ConsumerId(2))),
            (Edit::SetInstanceId { consumer: 2, instance_id: None }, Some(Field::InstanceId(2))),
            (Edit::SetRack { consumer: 2, rack: None }, Some(Field::Rack(2))),
            (Edit::SetStrategies { consumer: 2, strategies: vec![] }, Some(Field::Strategies(2))),
            (Edit::SetPatterns { consumer: 2, patterns: vec![] }, Some(Field::Patterns(2))),
            (Edit::AddTopic, None),
            (Edit::RemoveTopic { topic: 0 }, None),
            (Edit::AddConsumer, None),
            (Edit::DuplicateConsumer { consumer: 0 }, None),
            (Edit::ToggleSubscription { consumer: 0, topic: 0 }, None),
            (Edit::Subscribe { consumer: 0, topics: vec![0], subscribed: true }, None),
            (Edit::Join, None),
            (Edit::Leave { consumer: 0 }, None),
            (Edit::GrowTopic { topic: 0 }, None),
            (Edit::CreateTopic, None),
            (Edit::SetTopicId { topic: 1, id: None }, Some(Field::TopicId(1))),
            (Edit::SetGroupProtocol { consumer: true }, None),
            (Edit::SetRemoteAssignor { assignor: ServerAssignor::Range }, None),
        ];
        for (edit, field) in fields {
            assert_eq!(edit.field(), field, "{edit:?}");
        }
    }

    #[test]
    fn the_rules_are_validates_and_say_where() {
        let s = two_topics();
        let refused = |edit: Edit| edit.apply(&s).expect_err("applied");
        let located = |index, field, message: &str| {
            EditError::Invalid(Problem {
                severity: crate::Severity::Error,
                location: Location::Topic { index, field },
                message: message.into(),
            })
        };
        // Validate reports the second of two topics with one name, wherever the edit was.
        assert_eq!(
            refused(Edit::RenameTopic { topic: 0, name: "T2".into() }),
            located(1, "name", r#"there is already a topic "T2""#)
        );
        assert_eq!(
            refused(Edit::RenameTopic { topic: 1, name: "my topic".into() }),
            located(1, "name", "' ' is not allowed in a topic name (letters, digits, '.', '_' and '-' are)")
        );
        assert_eq!(
            refused(Edit::SetPartitions { topic: 0, partitions: MAX_TOPIC_PARTITIONS + 1 }),
            located(0, "partitions", "at most 1000000 partitions per topic")
        );
        let total = refused(Edit::SetPartitions { topic: 0, partitions: MAX_TOPIC_PARTITIONS });
        assert_eq!(total.location(), Some(&Location::Scenario));
        assert_eq!(total.reason(), "1000003 partitions in all; at most 1000000");

        let id = refused(Edit::RenameConsumer { consumer: 1, id: "C1".into() });
        assert_eq!(id.location(), Some(&Location::Consumer { index: 1, field: "id" }));
        assert_eq!(id.reason(), r#"there is already a consumer "C1""#);
        assert_eq!(id.to_string(), r#"consumer 2 id: there is already a consumer "C1""#);
        let strategy = refused(Edit::SetStrategies { consumer: 0, strategies: vec!["bogus".into()] });
        assert_eq!(strategy.reason(), r#"unknown strategy "bogus" (range, roundrobin, sticky or cooperative-sticky)"#);
    }

    #[test]
    fn an_event_and_an_edit_that_break_one_rule_are_refused_alike() {
        let s = two_topics();
        let event = Event::CreateTopic { topic: TopicSpec::new("T1", 2) }.apply(&s).expect_err("applied");
        let edit = Edit::RenameTopic { topic: 1, name: "T1".into() }.apply(&s).expect_err("applied");
        assert_eq!(event.reason(), edit.reason());
        assert!(matches!((&event, &edit), (EditError::Invalid(_), EditError::Invalid(_))));
    }

    #[test]
    fn what_no_scenario_shows_is_refused_by_the_edit() {
        let s = two_topics();
        assert_eq!(Edit::RemoveTopic { topic: 2 }.apply(&s), Err(EditError::NoTopicAt(2)));
        assert_eq!(Edit::GrowTopic { topic: 2 }.apply(&s), Err(EditError::NoTopicAt(2)));
        assert_eq!(Edit::DuplicateConsumer { consumer: 2 }.apply(&s), Err(EditError::NoConsumerAt(2)));
        assert_eq!(Edit::ToggleSubscription { consumer: 0, topic: 2 }.apply(&s), Err(EditError::NoTopicAt(2)));
        let all_and_more = Edit::Subscribe { consumer: 0, topics: vec![0, 1, 2], subscribed: true };
        assert_eq!(all_and_more.apply(&s), Err(EditError::NoTopicAt(2)));
        assert_eq!(
            Event::Leave { consumer: "nobody".into() }.apply(&s),
            Err(EditError::UnknownConsumer("nobody".into()))
        );
        let shrink = Event::AddPartitions { topic: "T1".into(), partitions: 5 }.apply(&s);
        assert_eq!(shrink, Err(EditError::NotMorePartitions { topic: "T1".into(), current: 5 }));
        assert_eq!(shrink.unwrap_err().to_string(), "T1 has 5 partitions; Kafka only adds partitions");
        assert_eq!(
            Event::Subscribe { consumer: "C1".into(), topic: "T1".into() }.apply(&s),
            Err(EditError::AlreadySubscribed { consumer: "C1".into(), topic: "T1".into() })
        );
        assert_eq!(EditError::NotACount("2.5".into()).reason(), r#""2.5" is not a partition count"#);
    }

    #[test]
    fn topics_are_added_renamed_resized_and_removed_with_their_subscriptions() {
        let s = applied(&two_topics(), Edit::AddTopic);
        let s = applied(&s, Edit::AddTopic);
        assert_eq!(names(&s).0, ["T1", "T2", "t0", "t1"]);
        assert_eq!(s.topics[2].partitions, 3);

        let s = applied(&s, Edit::RenameTopic { topic: 1, name: "orders".into() });
        assert_eq!(s.consumers[0].topics, ["T1", "orders"]);

        let mut s =
            applied(&s, Edit::SetPartitionRacks { topic: 0, partition: 4, racks: Some(vec![Some("a".into())]) });
        s = applied(&s, Edit::SetPartitionRacks { topic: 0, partition: 1, racks: Some(vec![]) });
        assert_eq!(s.topics[0].rack_overrides, BTreeMap::from([(1, vec![]), (4, vec![Some("a".into())])]));
        // Fewer partitions: the overrides of partitions that are gone go with them.
        s = applied(&s, Edit::SetPartitions { topic: 0, partitions: 3 });
        assert_eq!(s.topics[0].rack_overrides, BTreeMap::from([(1, vec![])]));

        let s = applied(&s, Edit::RemoveTopic { topic: 0 });
        assert_eq!(names(&s).0, ["orders", "t0", "t1"]);
        assert_eq!(s.consumers[1].topics, ["orders"]);
    }

    #[test]
    fn the_two_replica_inputs_make_one_layout() {
        let s = two_topics();
        let layout = |s: &Scenario| {
            s.topics[0].replicas.clone().map(|l| (l.factor, crate::format::replica_racks_text(&l.racks)))
        };
        // A first replication factor lays the replicas out over three racks.
        let s = applied(&s, Edit::SetReplicationFactor { topic: 0, factor: 2 });
        assert_eq!(layout(&s), Some((2, "a,b,c".into())));
        let s = applied(&s, Edit::SetReplicaRacks { topic: 0, racks: vec![Some("x".into()), Some("y".into())] });
        assert_eq!(layout(&s), Some((2, "x,y".into())));
        assert_eq!(s.topics[0].racks_of(1), [Some("y".to_string()), Some("x".to_string())]);
        let s = applied(&s, Edit::SetReplicationFactor { topic: 0, factor: 0 });
        assert_eq!(layout(&s), None);
        // Racks on a topic without a layout: one replica each.
        let s = applied(&s, Edit::SetReplicaRacks { topic: 0, racks: vec![Some("x".into())] });
        assert_eq!(layout(&s), Some((1, "x".into())));
        let s = applied(&s, Edit::SetReplicaRacks { topic: 0, racks: vec![] });
        assert_eq!(layout(&s), None);
        // More replicas than racks is validate's to refuse.
        let s = applied(&s, Edit::SetReplicaRacks { topic: 0, racks: vec![Some("x".into())] });
        let refused = Edit::SetReplicationFactor { topic: 0, factor: 2 }.apply(&s).expect_err("applied");
        assert_eq!(refused.reason(), "replication factor 2 needs at least 2 racks");
    }

    #[test]
    fn new_consumers_copy_the_last_one_under_a_free_id() {
        let mut s = two_topics();
        s.consumers[1] = ConsumerSpec {
            instance_id: Some("i2".into()),
            rack: Some("r1".into()),
            patterns: vec!["T.*".into()],
            strategies: vec!["sticky".into()],
            ..ConsumerSpec::new("C2", &["T2"])
        };
        let added = applied(&s, Edit::AddConsumer);
        let joined = applied(&s, Edit::Join);
        let like_c2 = ConsumerSpec { id: "C0".into(), instance_id: None, ..s.consumers[1].clone() };
        // Added in the form, it gets its rack there; joining, it runs beside the last one.
        assert_eq!(added.consumers[2], ConsumerSpec { rack: None, ..like_c2.clone() });
        assert_eq!(joined.consumers[2], like_c2);

        let s = applied(&added, Edit::DuplicateConsumer { consumer: 1 });
        let s = applied(&s, Edit::DuplicateConsumer { consumer: 1 });
        assert_eq!(names(&s).1, ["C1", "C2", "C2-1", "C2-0", "C0"]);
        assert_eq!(s.consumers[2].instance_id, None);
        assert_eq!(s.consumers[2].rack.as_deref(), Some("r1"));

        let empty = Scenario { consumers: Vec::new(), ..two_topics() };
        assert_eq!(applied(&empty, Edit::AddConsumer).consumers, [ConsumerSpec::new("C0", &["T1", "T2"])]);
    }

    #[test]
    fn consumer_fields_and_subscriptions() {
        let s = two_topics();
        let s = applied(&s, Edit::ToggleSubscription { consumer: 0, topic: 0 });
        assert_eq!(s.consumers[0].topics, ["T2"]);
        let s = applied(&s, Edit::ToggleSubscription { consumer: 0, topic: 0 });
        assert_eq!(s.consumers[0].topics, ["T2", "T1"]);
        // A picker's "none" and "all": one edit each, in the topics' order, each topic once.
        let s = applied(&s, Edit::Subscribe { consumer: 1, topics: vec![1, 0], subscribed: false });
        assert!(s.consumers[1].topics.is_empty());
        let s = applied(&s, Edit::ToggleSubscription { consumer: 1, topic: 1 });
        let s = applied(&s, Edit::Subscribe { consumer: 1, topics: vec![0, 1, 0], subscribed: true });
        assert_eq!(s.consumers[1].topics, ["T1", "T2"]);
        let s = applied(&s, Edit::Subscribe { consumer: 1, topics: vec![1], subscribed: false });
        assert_eq!(s.consumers[1].topics, ["T1"]);
        let s = applied(&s, Edit::RenameConsumer { consumer: 0, id: "A".into() });
        let s = applied(&s, Edit::SetInstanceId { consumer: 0, instance_id: Some("a-1".into()) });
        let s = applied(&s, Edit::SetRack { consumer: 0, rack: Some("r".into()) });
        let s = applied(&s, Edit::SetStrategies { consumer: 0, strategies: vec!["roundrobin".into()] });
        let s = applied(&s, Edit::SetPatterns { consumer: 0, patterns: vec!["T.*".into()] });
        let c = &s.consumers[0];
        assert_eq!(
            (c.id.as_str(), c.instance_id.as_deref(), c.rack.as_deref(), &c.strategies[..], &c.patterns[..]),
            ("A", Some("a-1"), Some("r"), &["roundrobin".to_string()][..], &["T.*".to_string()][..])
        );
    }

    #[test]
    fn triggers_become_events() {
        let s = two_topics();
        assert_eq!(names(&applied(&s, Edit::Leave { consumer: 0 })).1, ["C2"]);
        // A topic grows by as many partitions as it has, up to three.
        let s = applied(&s, Edit::GrowTopic { topic: 0 });
        assert_eq!(s.topics[0].partitions, 8);
        let mut small = two_topics();
        small.topics[1].partitions = 2;
        assert_eq!(applied(&small, Edit::GrowTopic { topic: 1 }).topics[1].partitions, 4);

        let s = applied(&s, Edit::CreateTopic);
        let s = applied(&s, Edit::CreateTopic);
        assert_eq!(names(&s).0, ["T1", "T2", "new-topic", "new-topic1"]);
        // Named so that the first pattern picks it up.
        let mut s = two_topics();
        s.consumers[1].patterns = vec!["test-.*".into()];
        assert_eq!(names(&applied(&s, Edit::CreateTopic)).0, ["T1", "T2", "test-topic"]);
    }
}

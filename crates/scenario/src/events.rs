//! The rebalance triggers of seed article 001 as one-step edits: a consumer joins or leaves
//! (crashes), partitions are added, a topic appears (and pattern subscriptions pick it up), a
//! consumer subscribes or unsubscribes. Events name topics and consumers; the page's
//! [`Edit`](crate::edit::Edit)s trigger them. Each returns a new scenario, or says why it cannot
//! apply, leaving the scenario as it was.

use assignor::rebalance::Rebalance;
use assignor::Strategy;
use serde::{Deserialize, Serialize};

use crate::edit::{consumer_mut, topic_mut, EditError};
use assignor::consumer_group::ServerAssignor;

use crate::format::{previous_key, ConsumerSpec, Scenario, TopicSpec};
use crate::model::{after_rebalance, Model};
use crate::validate;

/// Something that happens to the group and makes it rebalance, naming the topics and consumers it
/// concerns; presets are made of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// The consumer leaves the group (a crash, a scale-in, a shutdown).
    Leave {
        /// Its `member.id`.
        consumer: String,
    },
    /// A new consumer joins.
    Join {
        /// The consumer.
        consumer: ConsumerSpec,
    },
    /// The consumer's process restarts: it rejoins under a new `member.id` the coordinator hands
    /// out, keeping its configuration and `group.instance.id`, remembering no assignment.
    Restart {
        /// Its `member.id` before.
        consumer: String,
        /// Its `member.id` after.
        new_id: String,
    },
    /// The topic grows to `partitions` partitions (Kafka never shrinks a topic).
    AddPartitions {
        /// The topic's name.
        topic: String,
        /// Its partition count after.
        partitions: u32,
    },
    /// A topic is created; consumers with a matching pattern subscribe to it.
    CreateTopic {
        /// The topic.
        topic: TopicSpec,
    },
    /// The consumer subscribes to the topic.
    Subscribe {
        /// Its `member.id`.
        consumer: String,
        /// The topic's name.
        topic: String,
    },
    /// The consumer unsubscribes from the topic.
    Unsubscribe {
        /// Its `member.id`.
        consumer: String,
        /// The topic's name.
        topic: String,
    },
}

impl Event {
    /// A short sentence for timelines and history.
    pub fn describe(&self) -> String {
        match self {
            Event::Leave { consumer } => format!("{consumer} leaves the group"),
            Event::Join { consumer } => format!("{} joins the group", consumer.id),
            Event::Restart { consumer, new_id } => format!("{consumer} restarts and rejoins as {new_id}"),
            Event::AddPartitions { topic, partitions } => format!("{topic} grows to {partitions} partitions"),
            Event::CreateTopic { topic } => {
                format!("topic {} is created with {} partitions", topic.name, topic.partitions)
            }
            Event::Subscribe { consumer, topic } => format!("{consumer} subscribes to {topic}"),
            Event::Unsubscribe { consumer, topic } => format!("{consumer} unsubscribes from {topic}"),
        }
    }

    /// `scenario` with this event applied, not yet rebalanced; or why it cannot apply (the rules
    /// of [`validate`] included).
    pub fn apply(&self, scenario: &Scenario) -> Result<Scenario, EditError> {
        let mut next = scenario.clone();
        let consumer_index = |id: &str| {
            scenario.consumers.iter().position(|c| c.id == id).ok_or_else(|| EditError::UnknownConsumer(id.into()))
        };
        let topic_index = |name: &str| {
            scenario.topics.iter().position(|t| t.name == name).ok_or_else(|| EditError::UnknownTopic(name.into()))
        };
        match self {
            Event::Leave { consumer } => {
                next.consumers.remove(consumer_index(consumer)?);
            }
            Event::Join { consumer } => next.consumers.push(consumer.clone()),
            Event::Restart { consumer, new_id } => {
                let c = consumer_mut(&mut next, consumer_index(consumer)?)?;
                c.id = new_id.clone();
                if c.instance_id.is_some() && next.consumer_protocol() {
                    carry_static_target(&mut next, consumer, new_id);
                }
            }
            Event::AddPartitions { topic, partitions } => {
                let t = topic_mut(&mut next, topic_index(topic)?)?;
                if *partitions <= t.partitions {
                    return Err(EditError::NotMorePartitions { topic: topic.clone(), current: t.partitions });
                }
                t.partitions = *partitions;
            }
            Event::CreateTopic { topic } => next.topics.push(topic.clone()),
            Event::Subscribe { consumer, topic } => {
                topic_index(topic)?;
                let c = consumer_mut(&mut next, consumer_index(consumer)?)?;
                if c.topics.contains(topic) {
                    return Err(EditError::AlreadySubscribed { consumer: consumer.clone(), topic: topic.clone() });
                }
                c.topics.push(topic.clone());
            }
            Event::Unsubscribe { consumer, topic } => {
                let c = consumer_mut(&mut next, consumer_index(consumer)?)?;
                let before = c.topics.len();
                c.topics.retain(|t| t != topic);
                if c.topics.len() == before {
                    return Err(EditError::NotSubscribed { consumer: consumer.clone(), topic: topic.clone() });
                }
            }
        }
        Ok(validate::checked(next)?)
    }
}

/// Under the consumer protocol, a static member that rejoins under a new member id replaces the one
/// with its `group.instance.id`, and its current target goes with it (`TargetAssignmentBuilder`
/// reads the replaced member's target for it; KIP-848, `replaceMember`).
fn carry_static_target(scenario: &mut Scenario, old_id: &str, new_id: &str) {
    let Some(previous) = scenario.previous.as_mut() else { return };
    for assignor in ServerAssignor::ALL {
        if let Some(owned) = previous.assignments.get_mut(previous_key(assignor)) {
            let owned = std::sync::Arc::make_mut(owned);
            if let Some(target) = owned.remove(old_id) {
                owned.insert(new_id.to_string(), target);
            }
        }
    }
}

/// Runs every strategy's rebalance for `scenario`.
pub fn rebalance_all(model: &Model) -> Vec<Result<Rebalance, assignor::AssignError>> {
    Strategy::ALL.iter().map(|&s| model.rebalance(s)).collect()
}

/// `scenario`, free of errors (as edits and events leave it), after its rebalance: every
/// strategy's result becomes what its members own.
pub fn settle(scenario: &Scenario) -> Scenario {
    if scenario.consumer_protocol() {
        // The server-side assignors' targets become current too.
        return crate::report::Report::new(scenario).settled(scenario);
    }
    let results: Vec<Rebalance> = rebalance_all(&Model::resolve(scenario)).into_iter().flatten().collect();
    after_rebalance(scenario, &results)
}

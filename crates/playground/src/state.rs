//! The app's one model and its reducer. Every edit is a rebalance: what each strategy assigned
//! becomes what its members own, and the edited group is assigned again from there.
//!
//! The reducer only computes; side effects (URL, storage, clipboard) live in effects in `app.rs`.

use std::rc::Rc;

use scenario::events::Event;
use scenario::format::ReplicaLayout;
use scenario::model::after_rebalance;
use scenario::{ConsumerSpec, Scenario, TopicSpec};
use yew::Reducible;

use crate::computed::Computed;

/// Which field an edit changes. Edits to one field in a row (typing `12` into a partition count)
/// are one rebalance and one undo step, not one per keystroke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    TopicName(usize),
    Partitions(usize),
    Replicas(usize),
    PartitionRacks(usize, u32),
    ConsumerId(usize),
    InstanceId(usize),
    Rack(usize),
    Strategies(usize),
    Patterns(usize),
    /// One-off edits: each is its own rebalance.
    Once,
}

/// One change to the scenario, as the forms and buttons produce it.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    AddTopic,
    RemoveTopic(usize),
    RenameTopic {
        index: usize,
        name: String,
    },
    SetPartitions {
        index: usize,
        partitions: u32,
    },
    SetReplicas {
        index: usize,
        layout: Option<ReplicaLayout>,
    },
    /// One partition's replica racks (`None`: back to the layout).
    SetPartitionRacks {
        index: usize,
        partition: u32,
        racks: Option<Vec<String>>,
    },
    AddConsumer,
    DuplicateConsumer(usize),
    RenameConsumer {
        index: usize,
        id: String,
    },
    SetInstanceId {
        index: usize,
        instance_id: Option<String>,
    },
    SetRack {
        index: usize,
        rack: Option<String>,
    },
    SetStrategies {
        index: usize,
        strategies: Vec<String>,
    },
    SetPatterns {
        index: usize,
        patterns: Vec<String>,
    },
    ToggleSubscription {
        consumer: usize,
        topic: String,
    },
    Event(Event),
}

pub enum Action {
    Edit {
        field: Field,
        change: Change,
    },
    /// Replace the whole scenario (preset, link, file); undoable.
    Load(Scenario),
    /// Start over from the current group as a fresh group: no previous assignment.
    Forget,
    SetView(scenario::View),
    Undo,
    Redo,
    Banner(Option<String>),
    /// Input that is not even a value (letters in a count): say why beside the field.
    Refuse(Field, String),
}

#[derive(Clone, Debug)]
pub struct State {
    /// The scenario on screen; its `previous` is the assignment before the last edit.
    pub scenario: Rc<Scenario>,
    /// Derived from `scenario`, kept so an edit computes it once.
    pub computed: Rc<Computed>,
    /// The field of the last edit and the scenario that edit started from.
    last_edit: Option<(Field, Rc<Scenario>)>,
    undo: Vec<Rc<Scenario>>,
    redo: Vec<Rc<Scenario>>,
    /// The last refused edit: which field and why.
    pub refused: Option<(Field, String)>,
    /// A page-wide message (a link that did not open, storage that is unavailable).
    pub banner: Option<String>,
}

impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.scenario, &other.scenario) && self.refused == other.refused && self.banner == other.banner
    }
}

/// How many steps undo remembers.
const UNDO_DEPTH: usize = 100;

impl State {
    pub fn new(scenario: Scenario) -> State {
        State {
            computed: Rc::new(Computed::new(&scenario)),
            scenario: Rc::new(scenario),
            last_edit: None,
            undo: Vec::new(),
            redo: Vec::new(),
            refused: None,
            banner: None,
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The scenario the next edit starts from: this one, rebalanced.
    fn settled(&self) -> Scenario {
        after_rebalance(&self.scenario, &self.computed.rebalances())
    }

    fn show(
        &self,
        scenario: Rc<Scenario>,
        last_edit: Option<(Field, Rc<Scenario>)>,
        undo: Vec<Rc<Scenario>>,
        redo: Vec<Rc<Scenario>>,
    ) -> State {
        State {
            computed: Rc::new(Computed::new(&scenario)),
            scenario,
            last_edit,
            undo,
            redo,
            refused: None,
            banner: self.banner.clone(),
        }
    }

    fn push_undo(&self) -> Vec<Rc<Scenario>> {
        let mut undo = self.undo.clone();
        undo.push(Rc::clone(&self.scenario));
        if undo.len() > UNDO_DEPTH {
            undo.remove(0);
        }
        undo
    }

    pub fn apply(&self, action: Action) -> State {
        match action {
            Action::Edit { field, change } => {
                let continuing = match &self.last_edit {
                    Some((last, base)) if *last == field && field != Field::Once => Some(Rc::clone(base)),
                    _ => None,
                };
                let base = continuing.clone().unwrap_or_else(|| Rc::new(self.settled()));
                match change.apply(&base) {
                    Ok(next) => {
                        // A continued edit replaces the last one: undo goes back past both.
                        let undo = if continuing.is_some() { self.undo.clone() } else { self.push_undo() };
                        self.show(Rc::new(next), Some((field, base)), undo, Vec::new())
                    }
                    Err(message) => State { refused: Some((field, message)), ..self.clone() },
                }
            }
            Action::Load(scenario) => self.show(Rc::new(scenario), None, self.push_undo(), Vec::new()),
            Action::Forget => {
                let fresh = Scenario { previous: None, ..(*self.scenario).clone() };
                self.show(Rc::new(fresh), None, self.push_undo(), Vec::new())
            }
            Action::SetView(view) => {
                // The view is not a rebalance: same group, same previous assignment.
                let scenario = Rc::new(Scenario { view, ..(*self.scenario).clone() });
                State { scenario, ..self.clone() }
            }
            Action::Undo => match self.undo.split_last() {
                Some((last, rest)) => {
                    let mut redo = self.redo.clone();
                    redo.push(Rc::clone(&self.scenario));
                    self.show(Rc::clone(last), None, rest.to_vec(), redo)
                }
                None => self.clone(),
            },
            Action::Redo => match self.redo.split_last() {
                Some((next, rest)) => self.show(Rc::clone(next), None, self.push_undo(), rest.to_vec()),
                None => self.clone(),
            },
            Action::Banner(banner) => State { banner, ..self.clone() },
            Action::Refuse(field, message) => State { refused: Some((field, message)), ..self.clone() },
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

/// A name not yet taken: `prefix` followed by the smallest free number.
fn fresh_name(prefix: &str, taken: impl Fn(&str) -> bool) -> String {
    (0..).map(|i| format!("{prefix}{i}")).find(|n| !taken(n)).unwrap_or_else(|| prefix.to_string())
}

impl Change {
    /// `base` with this change, or why it is refused (the scenario stays as it was).
    pub fn apply(&self, base: &Scenario) -> Result<Scenario, String> {
        let mut s = base.clone();
        match self {
            Change::AddTopic => {
                let name = fresh_name("t", |n| s.topics.iter().any(|t| t.name == n));
                s.topics.push(TopicSpec::new(name, 3));
            }
            Change::RemoveTopic(i) => {
                let removed = checked(s.topics.get(*i), "topic")?.name.clone();
                s.topics.remove(*i);
                for c in &mut s.consumers {
                    c.topics.retain(|t| *t != removed);
                }
            }
            Change::RenameTopic { index, name } => {
                if let Some(problem) = scenario::validate::topic_name_problem(name) {
                    return Err(problem);
                }
                if s.topics.iter().enumerate().any(|(i, t)| i != *index && t.name == *name) {
                    return Err(format!("there is already a topic {name:?}"));
                }
                let old = checked(s.topics.get(*index), "topic")?.name.clone();
                if let Some(t) = s.topics.get_mut(*index) {
                    t.name = name.clone();
                }
                // Subscriptions follow the topic; what was owned of it is gone (a new topic).
                for c in &mut s.consumers {
                    for t in &mut c.topics {
                        if *t == old {
                            *t = name.clone();
                        }
                    }
                }
            }
            Change::SetPartitions { index, partitions } => {
                if let Some(problem) = scenario::validate::partition_count_problem(u64::from(*partitions)) {
                    return Err(problem);
                }
                let others: u64 =
                    s.topics.iter().enumerate().filter(|(i, _)| i != index).map(|(_, t)| u64::from(t.partitions)).sum();
                if others + u64::from(*partitions) > scenario::validate::MAX_TOTAL_PARTITIONS {
                    return Err(format!("at most {} partitions in all", scenario::validate::MAX_TOTAL_PARTITIONS));
                }
                let t = s.topics.get_mut(*index).ok_or("no such topic")?;
                t.partitions = *partitions;
                t.rack_overrides.retain(|p, _| p < partitions);
            }
            Change::SetReplicas { index, layout } => {
                s.topics.get_mut(*index).ok_or("no such topic")?.replicas = layout.clone();
            }
            Change::SetPartitionRacks { index, partition, racks } => {
                let t = s.topics.get_mut(*index).ok_or("no such topic")?;
                match racks {
                    Some(racks) => t.rack_overrides.insert(*partition, racks.clone()),
                    None => t.rack_overrides.remove(partition),
                };
            }
            Change::AddConsumer => {
                let id = fresh_name("C", |n| s.consumers.iter().any(|c| c.id == n));
                let topics: Vec<&str> = match s.consumers.last() {
                    Some(last) => last.topics.iter().map(String::as_str).collect(),
                    None => s.topics.iter().map(|t| t.name.as_str()).collect(),
                };
                let mut consumer = ConsumerSpec::new(id, &topics);
                if let Some(last) = s.consumers.last() {
                    consumer.patterns = last.patterns.clone();
                    consumer.strategies = last.strategies.clone();
                }
                s.consumers.push(consumer);
            }
            Change::DuplicateConsumer(i) => {
                let original = checked(s.consumers.get(*i), "consumer")?.clone();
                let id = fresh_name(&format!("{}-", original.id), |n| s.consumers.iter().any(|c| c.id == n));
                let copy = ConsumerSpec { id, instance_id: None, ..original };
                s.consumers.insert(*i + 1, copy);
            }
            Change::RenameConsumer { index, id } => {
                s.consumers.get_mut(*index).ok_or("no such consumer")?.id = id.clone();
            }
            Change::SetInstanceId { index, instance_id } => {
                s.consumers.get_mut(*index).ok_or("no such consumer")?.instance_id = instance_id.clone();
            }
            Change::SetRack { index, rack } => {
                s.consumers.get_mut(*index).ok_or("no such consumer")?.rack = rack.clone();
            }
            Change::SetStrategies { index, strategies } => {
                s.consumers.get_mut(*index).ok_or("no such consumer")?.strategies = strategies.clone();
            }
            Change::SetPatterns { index, patterns } => {
                s.consumers.get_mut(*index).ok_or("no such consumer")?.patterns = patterns.clone();
            }
            Change::ToggleSubscription { consumer, topic } => {
                let c = s.consumers.get_mut(*consumer).ok_or("no such consumer")?;
                if c.topics.contains(topic) {
                    c.topics.retain(|t| t != topic);
                } else {
                    c.topics.push(topic.clone());
                }
            }
            Change::Event(event) => return event.apply(base),
        }
        match scenario::validate::errors(&s).into_iter().next() {
            Some(problem) => Err(problem.message),
            None => Ok(s),
        }
    }
}

fn checked<'a, T>(item: Option<&'a T>, what: &str) -> Result<&'a T, String> {
    item.ok_or_else(|| format!("no such {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(id: &str) -> State {
        State::new(scenario::presets::find(id).and_then(|p| p.scenario().ok()).unwrap_or_default())
    }

    fn range_of(state: &State, member: &str) -> Vec<String> {
        let panel = state.computed.panel(assignor::Strategy::Range).unwrap();
        let outcome = panel.outcome.as_ref().unwrap();
        outcome.rebalance.result()[member].iter().map(ToString::to_string).collect()
    }

    #[test]
    fn an_edit_rebalances_from_the_last_assignment() {
        let state = preset("range-imbalance");
        assert_eq!(range_of(&state, "C1"), ["T1-0", "T1-1", "T1-2", "T2-0", "T2-1"]);
        let state = state.apply(Action::Edit { field: Field::Once, change: Change::AddConsumer });
        let range = state.computed.panel(assignor::Strategy::Range).unwrap().outcome.as_ref().unwrap();
        // C1 owned five partitions before the edit; now the ranges are cut three ways.
        assert_eq!(range.rebalance.before["C1"].len(), 5);
        assert_eq!(range_of(&state, "C0"), ["T1-0", "T1-1", "T2-0"]);
        assert!(state.can_undo());
    }

    #[test]
    fn typing_into_one_field_is_one_rebalance() {
        let state = preset("range-imbalance");
        let typed = |state: &State, n| {
            state.apply(Action::Edit {
                field: Field::Partitions(0),
                change: Change::SetPartitions { index: 0, partitions: n },
            })
        };
        let after_1 = typed(&state, 1);
        let after_12 = typed(&after_1, 12);
        let range = after_12.computed.panel(assignor::Strategy::Range).unwrap().outcome.as_ref().unwrap();
        // The diff starts from the 5-partition topic, not from the 1 typed on the way to 12.
        assert_eq!(range.rebalance.before["C1"].len(), 5);
        let undone = after_12.apply(Action::Undo);
        assert!(Rc::ptr_eq(&undone.scenario, &state.scenario));
    }

    #[test]
    fn bad_input_is_refused_and_the_work_kept() {
        let state = preset("range-imbalance");
        for change in [
            Change::RenameTopic { index: 0, name: "T2".into() },
            Change::RenameTopic { index: 0, name: "has space".into() },
            Change::SetPartitions { index: 0, partitions: 0 },
            Change::SetPartitions { index: 0, partitions: 5_000_000 },
            Change::RenameConsumer { index: 1, id: "C1".into() },
            Change::RenameConsumer { index: 1, id: " ".into() },
            Change::RemoveTopic(9),
            Change::Event(Event::Leave { consumer: "nobody".into() }),
        ] {
            let next = state.apply(Action::Edit { field: Field::Once, change: change.clone() });
            assert!(Rc::ptr_eq(&next.scenario, &state.scenario), "{change:?} was applied");
            assert!(next.refused.is_some(), "{change:?} gave no reason");
        }
    }
}

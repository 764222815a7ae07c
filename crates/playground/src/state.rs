//! The app's one model and its reducer. Every edit is a rebalance: what each strategy assigned
//! becomes what its members own, and the edited group is assigned again from there.
//!
//! The reducer only computes; side effects (URL, storage, clipboard) live in effects in `app.rs`.

use std::rc::Rc;

pub use scenario::edit::{Edit, EditError, Field};
use scenario::Scenario;
use yew::Reducible;

use crate::computed::Computed;

pub enum Action {
    /// Make an edit; `scenario` refuses what breaks its rules.
    Edit(Edit),
    /// Replace the whole scenario (preset, link, file); undoable.
    Load(Scenario),
    /// Start over from the current group as a fresh group: no previous assignment.
    Forget,
    SetView(scenario::View),
    Undo,
    Redo,
    Banner(Option<String>),
    /// Input that is not even a value (letters in a count): say why beside the field.
    Refuse {
        field: Field,
        error: EditError,
    },
}

/// An edit that was refused, and the field it came from (`None`: a button).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub field: Option<Field>,
    pub error: EditError,
}

#[derive(Clone, Debug)]
pub struct State {
    /// The scenario on screen; its `previous` is the assignment before the last edit.
    pub scenario: Rc<Scenario>,
    /// Derived from `scenario`, kept so an edit computes it once.
    pub computed: Rc<Computed>,
    /// The field being edited and the scenario its first edit started from.
    current: Option<(Field, Rc<Scenario>)>,
    undo: Vec<Rc<Scenario>>,
    redo: Vec<Rc<Scenario>>,
    /// The last refused edit.
    pub refused: Option<Refusal>,
    /// A page-wide message (a link or a file that did not open).
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
            current: None,
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
        self.computed.settled(&self.scenario)
    }

    /// Why the last edit of `field` was refused, if it was.
    pub fn refusal(&self, field: Field) -> Option<String> {
        self.refused.as_ref().filter(|r| r.field == Some(field)).map(|r| r.error.reason())
    }

    fn show(
        &self,
        scenario: Rc<Scenario>,
        current: Option<(Field, Rc<Scenario>)>,
        undo: Vec<Rc<Scenario>>,
        redo: Vec<Rc<Scenario>>,
    ) -> State {
        State {
            computed: Rc::new(Computed::new(&scenario)),
            scenario,
            current,
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
            Action::Edit(edit) => {
                let field = edit.field();
                let continuing = match &self.current {
                    Some((current, base)) if Some(*current) == field => Some(Rc::clone(base)),
                    _ => None,
                };
                let base = continuing.clone().unwrap_or_else(|| Rc::new(self.settled()));
                match edit.apply(&base) {
                    Ok(next) => {
                        // A continued edit replaces the last one: undo goes back past both.
                        let undo = if continuing.is_some() { self.undo.clone() } else { self.push_undo() };
                        self.show(Rc::new(next), field.map(|f| (f, base)), undo, Vec::new())
                    }
                    Err(error) => State { refused: Some(Refusal { field, error }), ..self.clone() },
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
            Action::Refuse { field, error } => {
                State { refused: Some(Refusal { field: Some(field), error }), ..self.clone() }
            }
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(id: &str) -> State {
        State::new(scenario::presets::find(id).and_then(|p| p.scenario().ok()).unwrap_or_default())
    }

    fn range_of(state: &State, member: &str) -> Vec<String> {
        let outcome = state.computed.outcome(assignor::Strategy::Range).unwrap();
        outcome.rebalance.result()[member].iter().map(ToString::to_string).collect()
    }

    #[test]
    fn an_edit_rebalances_from_the_last_assignment() {
        let state = preset("range-imbalance");
        assert_eq!(range_of(&state, "C1"), ["T1-0", "T1-1", "T1-2", "T2-0", "T2-1"]);
        let state = state.apply(Action::Edit(Edit::AddConsumer));
        let range = state.computed.outcome(assignor::Strategy::Range).unwrap();
        // C1 owned five partitions before the edit; now the ranges are cut three ways.
        assert_eq!(range.rebalance.before["C1"].len(), 5);
        assert_eq!(range_of(&state, "C0"), ["T1-0", "T1-1", "T2-0"]);
        assert!(state.can_undo());
    }

    #[test]
    fn typing_into_one_field_is_one_rebalance() {
        let state = preset("range-imbalance");
        let typed = |state: &State, n| state.apply(Action::Edit(Edit::SetPartitions { topic: 0, partitions: n }));
        let after_1 = typed(&state, 1);
        let after_12 = typed(&after_1, 12);
        let range = after_12.computed.outcome(assignor::Strategy::Range).unwrap();
        // The diff starts from the 5-partition topic, not from the 1 typed on the way to 12.
        assert_eq!(range.rebalance.before["C1"].len(), 5);
        let undone = after_12.apply(Action::Undo);
        assert!(Rc::ptr_eq(&undone.scenario, &state.scenario));
    }

    #[test]
    fn bad_input_is_refused_and_the_work_kept() {
        let state = preset("range-imbalance");
        for edit in [
            Edit::RenameTopic { topic: 0, name: "T2".into() },
            Edit::RenameTopic { topic: 0, name: "has space".into() },
            Edit::SetPartitions { topic: 0, partitions: 5_000_000 },
            Edit::RenameConsumer { consumer: 1, id: "C1".into() },
            Edit::RenameConsumer { consumer: 1, id: " ".into() },
            Edit::RemoveTopic { topic: 9 },
            Edit::Leave { consumer: 9 },
        ] {
            let next = state.apply(Action::Edit(edit.clone()));
            assert!(Rc::ptr_eq(&next.scenario, &state.scenario), "{edit:?} was applied");
            let refused = next.refused.as_ref().unwrap_or_else(|| panic!("{edit:?} gave no reason"));
            // The reason shows beside the field the edit came from.
            assert_eq!(refused.field, edit.field());
            if let Some(field) = edit.field() {
                assert_eq!(next.refusal(field), Some(refused.error.reason()));
            }
        }
    }

    #[test]
    fn the_replication_factor_and_the_racks_are_two_edits() {
        let state = preset("range-imbalance");
        let factor = state.apply(Action::Edit(Edit::SetReplicationFactor { topic: 0, factor: 2 }));
        let racks = factor
            .apply(Action::Edit(Edit::SetReplicaRacks { topic: 0, racks: vec![Some("x".into()), Some("y".into())] }));
        // Undo takes the racks back and leaves the factor: each input is its own field.
        let undone = racks.apply(Action::Undo);
        assert!(Rc::ptr_eq(&undone.scenario, &factor.scenario));
        assert_eq!(undone.apply(Action::Undo).scenario, state.scenario);
    }

    /// What Kafka's metadata holds, the page holds: a topic with no partitions (being created or
    /// re-created) and replicas on brokers without a rack.
    #[test]
    fn a_topic_without_partitions_and_rackless_replicas_are_edits_like_any_other() {
        let state = preset("range-imbalance");
        let emptied = state.apply(Action::Edit(Edit::SetPartitions { topic: 0, partitions: 0 }));
        assert!(emptied.refused.is_none());
        assert_eq!(emptied.scenario.topics[0].partitions, 0);
        assert_eq!(range_of(&emptied, "C1"), ["T2-0", "T2-1"]);
        let racks = vec![Some("a".to_string()), None];
        let rackless =
            state.apply(Action::Edit(Edit::SetPartitionRacks { topic: 0, partition: 1, racks: Some(racks.clone()) }));
        assert!(rackless.refused.is_none());
        assert_eq!(rackless.scenario.topics[0].racks_of(1), racks);
    }
}

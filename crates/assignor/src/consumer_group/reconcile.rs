//! Reconciliation (`CurrentAssignmentBuilder`): how a member converges to its target through
//! heartbeats.

//! Inputs that keep what the person typed, dispatch each edit as they type, and show why an edit
//! was refused right beside the field.
//!
//! Every field has a size limit ([`Field::max_len`]): longer input is refused before anything looks
//! at it.
//! A number is applied only whole: each keystroke is checked at once (by its digits, before it is
//! parsed), but applied only when the typing pauses, on Enter or on leaving the field, so that the
//! numbers typed on the way (`100000` on the way to `1000000000`) never reach the model, the link
//! or the saved work, nor cost a rebalance.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use scenario::validate::{self, Problem, Severity};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::state::{Action, EditError, Field};
use crate::ui::Store;

/// How long a number field waits after a keystroke before it applies what was typed.
pub const SETTLE_MS: u32 = 600;

/// A refusal of what was typed into `field`, located as `validate` locates its problems.
fn refusal(field: Field, message: String) -> EditError {
    EditError::Invalid(Problem { severity: Severity::Error, location: field.location(), message })
}

#[derive(Properties, PartialEq)]
pub struct TextFieldProps {
    pub label: AttrValue,
    /// The committed value.
    pub value: AttrValue,
    pub field: Field,
    pub on_input: Callback<String>,
    #[prop_or_default]
    pub placeholder: AttrValue,
    /// `text` or `number`.
    #[prop_or(AttrValue::Static("text"))]
    pub kind: AttrValue,
    /// Hide the label visually (it stays for screen readers).
    #[prop_or_default]
    pub compact: bool,
    /// For a number: why a draft is refused, if it is (by default, a whole number up to 32,767).
    #[prop_or_default]
    pub check: Option<Callback<String, Option<String>>>,
}

/// Kafka's counts that are not partitions (a replication factor) are int16s.
fn whole_number_problem(text: String) -> Option<String> {
    validate::parse_count(&text, "a whole number", i16::MAX as u32).err()
}

#[function_component]
pub fn TextField(props: &TextFieldProps) -> Html {
    let store = use_context::<Store>();
    let draft = use_state(|| props.value.to_string());
    // A number waiting for the typing to pause, and its timer.
    let pending = use_mut_ref(|| None::<String>);
    let timer = use_mut_ref(|| None::<Timeout>);
    {
        // Undo, a preset or a link changed the value: show it, and drop what was waiting.
        let (draft, pending, timer) = (draft.clone(), pending.clone(), timer.clone());
        use_effect_with(props.value.clone(), move |value| {
            draft.set(value.to_string());
            pending.borrow_mut().take();
            timer.borrow_mut().take();
        });
    }
    let error = store.as_ref().and_then(|s| s.refusal(props.field));
    {
        // Once the refusal is gone (another edit was made), show the committed value again.
        let draft = draft.clone();
        use_effect_with((props.value.clone(), error.is_some()), move |(value, refused)| {
            if !refused {
                draft.set(value.to_string());
            }
        });
    }
    let number = props.kind == "number";
    let apply_now = {
        let (pending, timer, on_input) = (pending.clone(), timer.clone(), props.on_input.clone());
        Rc::new(move || apply_pending(&pending, &timer, &on_input))
    };
    let oninput = {
        let (draft, on_input, field) = (draft.clone(), props.on_input.clone(), props.field);
        let (pending, timer, apply_now, store) = (pending.clone(), timer.clone(), Rc::clone(&apply_now), store.clone());
        let check = props.check.clone().unwrap_or_else(|| Callback::from(whole_number_problem));
        Callback::from(move |e: InputEvent| {
            let value = e.target_unchecked_into::<HtmlInputElement>().value();
            draft.set(value.clone());
            pending.borrow_mut().take();
            timer.borrow_mut().take();
            let refuse = |message: String| {
                if let Some(store) = &store {
                    store.dispatch(Action::Refuse { field, error: refusal(field, message) });
                }
            };
            let limit = field.max_len();
            if validate::longer_than(&value, limit) {
                return refuse(format!("at most {limit} characters here"));
            }
            if !number {
                return on_input.emit(value);
            }
            if let Some(message) = check.emit(value.clone()) {
                return refuse(message);
            }
            *pending.borrow_mut() = Some(value);
            let apply_now = Rc::clone(&apply_now);
            *timer.borrow_mut() = Some(Timeout::new(SETTLE_MS, move || apply_now()));
        })
    };
    let onchange = {
        let apply_now = Rc::clone(&apply_now);
        Callback::from(move |_: Event| apply_now())
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" {
            apply_now();
        }
    });
    html! {
        <label class={classes!("field", props.compact.then_some("compact"))}>
            <span class="label">{ props.label.clone() }</span>
            <input type={props.kind.clone()} value={(*draft).clone()} {oninput} {onchange} {onkeydown} placeholder={props.placeholder.clone()}
                aria-invalid={error.is_some().then_some("true")} />
            if let Some(message) = error {
                <span class="error" role="alert">{ message }</span>
            }
        </label>
    }
}

/// Applies the number waiting in `pending`, if any.
fn apply_pending(pending: &RefCell<Option<String>>, timer: &RefCell<Option<Timeout>>, on_input: &Callback<String>) {
    timer.borrow_mut().take();
    let value = pending.borrow_mut().take();
    if let Some(value) = value {
        on_input.emit(value);
    }
}

#[derive(Properties, PartialEq)]
pub struct CountFieldProps {
    pub label: AttrValue,
    pub value: u32,
    pub field: Field,
    pub on_set: Callback<u32>,
}

/// A partition count: typed (checked at each keystroke, applied whole) or stepped with − and +.
#[function_component]
pub fn CountField(props: &CountFieldProps) -> Html {
    let on_input = {
        let on_set = props.on_set.clone();
        // Checked already: only a count reaches here (or an empty field, which waits for one).
        Callback::from(move |text: String| {
            if let Ok(Some(n)) = validate::parse_partition_count(&text) {
                on_set.emit(n);
            }
        })
    };
    let check = Callback::from(|text: String| validate::parse_partition_count(&text).err());
    let step = |delta: i64| {
        let (on_set, value) = (props.on_set.clone(), props.value);
        Callback::from(move |_| {
            let next = i64::from(value) + delta;
            if let Ok(n) = u32::try_from(next) {
                on_set.emit(n);
            }
        })
    };
    html! {
        <span class="count-field">
            <TextField label={props.label.clone()} value={props.value.to_string()} field={props.field} {on_input} {check} kind="number" compact=true />
            <button type="button" class="step" aria-label={format!("{} minus one", props.label)} onclick={step(-1)}>{ "−" }</button>
            <button type="button" class="step" aria-label={format!("{} plus one", props.label)} onclick={step(1)}>{ "+" }</button>
        </span>
    }
}

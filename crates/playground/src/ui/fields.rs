//! Inputs that keep what the person typed, emit each edit as they type, and show why an edit was
//! refused right beside the field.
//!
//! They are pure: everything they show comes in as props (the value, the refusal) and everything
//! they do goes out through callbacks, so a field re-renders only when its own value or refusal
//! changes, never because something else in the store did.
//!
//! Every field has a size limit ([`Field::max_len`]): longer input is refused before anything looks
//! at it.
//! A number is applied only whole: each keystroke is checked at once (by its digits, before it is
//! parsed), but applied only when the typing pauses, on Enter or on leaving the field, so that the
//! numbers typed on the way (`100000` on the way to `1000000000`) never reach the model, the link
//! or the saved work, nor cost a rebalance. What is typed on the way is a *draft* (`on_draft`):
//! the page computes its edit ahead, so that the key that applies it finds the answer there
//! (`state::Action::Draft`); Escape drops it and shows the committed value again.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use scenario::validate::{self, Problem, Severity};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::state::{EditError, Field};

/// How long a number field waits after a keystroke before it applies what was typed.
pub const SETTLE_MS: u32 = 600;

/// A refusal of what was typed into `field`, located as `validate` locates its problems.
pub fn refusal(field: Field, message: String) -> EditError {
    EditError::Invalid(Problem { severity: Severity::Error, location: field.location(), message })
}

#[derive(Properties, PartialEq)]
pub struct TextFieldProps {
    pub label: AttrValue,
    /// The committed value.
    pub value: AttrValue,
    pub field: Field,
    /// Why the last edit of this field was refused, if it was.
    #[prop_or_default]
    pub error: Option<AttrValue>,
    pub on_input: Callback<String>,
    /// What was typed is not even a value (too long, letters in a count): the message to show.
    pub on_refuse: Callback<(Field, String)>,
    #[prop_or_default]
    pub placeholder: AttrValue,
    /// A short visible caption (the label itself stays for screen readers only).
    #[prop_or_default]
    pub caption: Option<AttrValue>,
    /// `text` or `number`.
    #[prop_or(AttrValue::Static("text"))]
    pub kind: AttrValue,
    /// Hide the label visually (it stays for screen readers).
    #[prop_or_default]
    pub compact: bool,
    /// For a number: why a draft is refused, if it is (by default, a whole number up to 32,767).
    #[prop_or_default]
    pub check: Option<Callback<String, Option<String>>>,
    /// For a number: each draft that passes `check` as it is typed, then `None` once it is
    /// refused or dropped (Escape). Not for the draft applied: that is `on_input`'s.
    #[prop_or_default]
    pub on_draft: Option<Callback<Option<String>>>,
}

/// Kafka's counts that are not partitions (a replication factor) are int16s.
fn whole_number_problem(text: String) -> Option<String> {
    validate::parse_count(&text, "a whole number", i16::MAX as u32).err()
}

#[function_component]
pub fn TextField(props: &TextFieldProps) -> Html {
    crate::ui::rendered("TextField");
    // Set only when it changes: the effects below set it to the value at every mount too, and a
    // plain `use_state` renders the field again for that (every field of the page twice as it
    // opens; issue 9).
    let draft = use_state_eq(|| props.value.to_string());
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
    let error = props.error.clone();
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
    let on_draft = props.on_draft.clone().unwrap_or_default();
    let oninput = {
        let (draft, on_input, field, on_draft) = (draft.clone(), props.on_input.clone(), props.field, on_draft.clone());
        let (pending, timer, apply_now, on_refuse) =
            (pending.clone(), timer.clone(), Rc::clone(&apply_now), props.on_refuse.clone());
        let check = props.check.clone().unwrap_or_else(|| Callback::from(whole_number_problem));
        Callback::from(move |e: InputEvent| {
            let value = e.target_unchecked_into::<HtmlInputElement>().value();
            draft.set(value.clone());
            pending.borrow_mut().take();
            timer.borrow_mut().take();
            let refuse = |message: String| on_refuse.emit((field, message));
            let limit = field.max_len();
            if validate::longer_than(&value, limit) {
                return refuse(format!("at most {limit} characters here"));
            }
            if !number {
                return on_input.emit(value);
            }
            if let Some(message) = check.emit(value.clone()) {
                on_draft.emit(None);
                return refuse(message);
            }
            on_draft.emit(Some(value.clone()));
            *pending.borrow_mut() = Some(value);
            let apply_now = Rc::clone(&apply_now);
            *timer.borrow_mut() = Some(Timeout::new(SETTLE_MS, move || apply_now()));
        })
    };
    let onchange = {
        let apply_now = Rc::clone(&apply_now);
        Callback::from(move |_: Event| apply_now())
    };
    let onkeydown = {
        let (draft, value, pending, timer) = (draft.clone(), props.value.clone(), pending.clone(), timer.clone());
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Enter" => apply_now(),
            // The number typed is dropped: the field shows the committed value again.
            "Escape" if pending.borrow_mut().take().is_some() => {
                // Ours: a dialog around the field stays open (`dialog.rs` leaves a used Escape).
                e.prevent_default();
                timer.borrow_mut().take();
                draft.set(value.to_string());
                on_draft.emit(None);
            }
            _ => {}
        })
    };
    html! {
        <label class={classes!("field", props.compact.then_some("compact"), props.caption.is_some().then_some("captioned"))}>
            <span class="label">{ props.label.clone() }</span>
            if let Some(caption) = &props.caption {
                <span class="caption" aria-hidden="true">{ caption.clone() }</span>
            }
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
    #[prop_or_default]
    pub error: Option<AttrValue>,
    pub on_set: Callback<u32>,
    pub on_refuse: Callback<(Field, String)>,
    /// Each count typed on the way, before it is applied (`TextField`'s `on_draft`).
    #[prop_or_default]
    pub on_draft: Option<Callback<Option<u32>>>,
}

/// A partition count: typed (checked at each keystroke, applied whole) or stepped with − and +.
#[function_component]
pub fn CountField(props: &CountFieldProps) -> Html {
    // Checked already: only a count reaches here (or an empty field, which waits for one).
    let on_input = use_callback(props.on_set.clone(), |text: String, on_set| {
        if let Ok(Some(n)) = validate::parse_partition_count(&text) {
            on_set.emit(n);
        }
    });
    let check = use_callback((), |text: String, ()| validate::parse_partition_count(&text).err());
    let on_draft = use_callback(props.on_draft.clone(), |text: Option<String>, on_draft| {
        if let Some(on_draft) = on_draft {
            on_draft.emit(text.and_then(|t| validate::parse_partition_count(&t).ok().flatten()));
        }
    });
    let step = use_callback((props.on_set.clone(), props.value), |delta: i64, (on_set, value)| {
        if let Ok(n) = u32::try_from(i64::from(*value) + delta) {
            on_set.emit(n);
        }
    });
    let (minus, plus) = (step.reform(|_: MouseEvent| -1), step.reform(|_: MouseEvent| 1));
    html! {
        <span class="count-field">
            <TextField label={props.label.clone()} value={props.value.to_string()} field={props.field} error={props.error.clone()}
                {on_input} on_refuse={props.on_refuse.clone()} {check} {on_draft} kind="number" compact=true />
            <button type="button" class="step" aria-label={format!("{} minus one", props.label)} onclick={minus}>{ "−" }</button>
            <button type="button" class="step" aria-label={format!("{} plus one", props.label)} onclick={plus}>{ "+" }</button>
        </span>
    }
}

#[derive(Properties, PartialEq)]
pub struct SearchFieldProps {
    /// What the field finds, for screen readers (the placeholder says it on screen).
    pub label: AttrValue,
    pub placeholder: AttrValue,
    pub value: AttrValue,
    /// What the search finds (`ui::find::found`), said as it changes.
    pub status: AttrValue,
    pub on_change: Callback<String>,
    /// Enter, with the text: what it names is opened (a panel's member).
    #[prop_or_default]
    pub on_enter: Option<Callback<String>>,
    /// More classes for the box (`member-search` in a panel).
    #[prop_or_default]
    pub class: Classes,
}

/// A search box and its count: each keystroke emits the text, Escape or Clear empties it, Enter
/// hands it to `on_enter`. The text is the view's, never an edit: it is in no scenario, undo step,
/// link or save.
#[function_component]
pub fn SearchField(props: &SearchFieldProps) -> Html {
    let input = use_node_ref();
    let oninput = props.on_change.reform(|e: InputEvent| e.target_unchecked_into::<HtmlInputElement>().value());
    let typed = !props.value.is_empty();
    let onkeydown = {
        let (on_change, on_enter) = (props.on_change.clone(), props.on_enter.clone());
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Escape" if typed => {
                // Ours: a dialog open elsewhere stays open.
                e.prevent_default();
                on_change.emit(String::new());
            }
            "Enter" => {
                if let Some(on_enter) = &on_enter {
                    on_enter.emit(e.target_unchecked_into::<HtmlInputElement>().value());
                }
            }
            _ => {}
        })
    };
    let clear = {
        let (on_change, input) = (props.on_change.clone(), input.clone());
        Callback::from(move |_: MouseEvent| {
            on_change.emit(String::new());
            // The button goes with the text: the focus goes back to the field.
            if let Some(input) = input.cast::<HtmlInputElement>() {
                let _ = input.focus();
            }
        })
    };
    html! {
        <div class={classes!("search-field", props.class.clone())}>
            <label>
                <span class="sr-only">{ props.label.clone() }</span>
                <input ref={input} type="search" placeholder={props.placeholder.clone()} value={props.value.clone()} {oninput} {onkeydown} />
            </label>
            if typed {
                <button type="button" onclick={clear} aria-label={format!("Clear: {}", props.label)}>{ "Clear" }</button>
            }
            <span class="hint" aria-live="polite">{ props.status.clone() }</span>
        </div>
    }
}

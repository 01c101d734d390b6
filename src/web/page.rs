//! The frame every page shares (head, menu, sign-out form) and the error
//! page. Templates are maud macros: every `(value)` is HTML-escaped, and
//! the only unescaped markup is what [`super::statement`] renders.
//!
//! No page carries inline script or style: the stylesheet and the one
//! script are static files (see [`super::assets`]), as the
//! Content-Security-Policy demands.

use axum::http::StatusCode;
use maud::{DOCTYPE, Markup, html};

use super::visitor::Visitor;
use crate::domain::{Role, SubmissionState, Verdict};

/// A whole page: `title`, the menu for `visitor` (none on the sign-in
/// page), and `body`.
pub fn frame(title: &str, visitor: Option<&Visitor>, body: Markup) -> Markup {
    framed(title, visitor.map_or(Menu::None, Menu::For), body)
}

/// What the page's header offers.
enum Menu<'a> {
    /// Nothing (the sign-in page).
    None,
    /// The links every signed-in visitor has, whoever asks (an error page,
    /// which does not know its visitor; a signed-out one is sent to sign in).
    Basic,
    /// The menu of this visitor's role, with their name and sign-out.
    For(&'a Visitor),
}

fn framed(title: &str, menu: Menu<'_>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · nimjudge" }
                link rel="stylesheet" href="/static/style.css";
            }
            body {
                header.top {
                    a.brand href="/" { "nimjudge" }
                    @match menu {
                        Menu::None => {},
                        Menu::Basic => nav {
                            a href="/problems" { "Problems" }
                            a href="/contests" { "Contests" }
                            a href="/submissions" { "My submissions" }
                        },
                        Menu::For(visitor) => {
                            nav {
                                a href="/problems" { "Problems" }
                                a href="/contests" { "Contests" }
                                a href="/submissions" { "My submissions" }
                                @if visitor.caller.role().is_staff() {
                                    a href="/submissions?everyone=true" { "All submissions" }
                                    a href="/log" { "Verdict log" }
                                }
                                @if visitor.caller.role() == Role::Admin {
                                    a href="/tokens" { "Tokens" }
                                }
                                a href="/api-docs" { "API" }
                            }
                            div.who {
                                span.name { (visitor.caller.name()) }
                                span class={ "role role-" (visitor.caller.role()) } { (visitor.caller.role()) }
                                form.inline method="post" action="/sign-out" {
                                    input type="hidden" name="csrf" value=(visitor.csrf);
                                    button.link type="submit" id="sign-out" { "Sign out" }
                                }
                            }
                        },
                    }
                }
                main { (body) }
            }
        }
    }
}

/// The page of a failed request: its status and a message safe to show.
pub fn error(status: StatusCode, message: &str) -> Markup {
    let reason = status.canonical_reason().unwrap_or("Error");
    framed(
        reason,
        Menu::Basic,
        html! {
            section.error {
                h1 { (status.as_u16()) " " (reason) }
                p #error-message { (prose(message)) }
                p { a href="/problems" { "Back to the problems" } }
            }
        },
    )
}

/// A message as prose: its `backticked` parts (names, settings, values, as
/// messages quote them) as code, the rest as text, all escaped.
pub fn prose(message: &str) -> Markup {
    html! {
        @for (index, part) in message.split('`').enumerate() {
            @if index % 2 == 1 { code { (part) } } @else { (part) }
        }
    }
}

/// A verdict as a coloured badge; a submission still waiting shows its
/// state instead.
pub fn verdict_badge(state: SubmissionState, verdict: Option<Verdict>) -> Markup {
    match (state, verdict) {
        (SubmissionState::Done, Some(verdict)) => html! {
            span class={ "verdict verdict-" (verdict) } { (verdict) }
        },
        (state, _) => html! { span class="verdict verdict-pending" { (state_label(state)) } },
    }
}

/// A time as pages show it, to the minute in UTC.
pub fn time_text(at: crate::domain::Timestamp) -> String {
    at.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

/// A size in bytes, KiB or MiB.
pub fn byte_size(bytes: usize) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

/// What a waiting submission shows.
pub fn state_label(state: SubmissionState) -> &'static str {
    match state {
        SubmissionState::Queued => "queued",
        SubmissionState::Running => "judging",
        SubmissionState::Done => "done",
    }
}

#[cfg(test)]
mod tests {
    use super::byte_size;

    #[test]
    fn sizes_are_shown_in_the_largest_fitting_unit() {
        assert_eq!(byte_size(0), "0 B");
        assert_eq!(byte_size(1023), "1023 B");
        assert_eq!(byte_size(1536), "1.5 KiB");
        assert_eq!(byte_size(3 * 1_048_576), "3.0 MiB");
    }
}

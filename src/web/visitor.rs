//! Who is looking at a page: a signed-in visitor, as every page renders it
//! (its menu, its forms' CSRF token) and as every handler checks it (the
//! same [`Caller`] a bearer token gives the API).
//!
//! This module is the data only, below both [`super::page`] (which draws
//! the menu from it) and [`super::session`] (which finds a visitor from the
//! session cookie and checks the CSRF token of their forms), so the arrows
//! between those two run one way: `session` uses `page`, never the reverse.

use crate::app::Caller;

/// A signed-in visitor: the same [`Caller`] the API's bearer tokens give,
/// so pages call the same code with the same permissions. Taken from a
/// request by [`super::session`]'s extractor, which also holds
/// [`Visitor::check_csrf`].
#[derive(Debug, Clone)]
pub struct Visitor {
    pub caller: Caller,
    /// This session's CSRF token, for the forms a page renders.
    pub csrf: String,
    /// The session id from the cookie, to end the session at sign-out.
    pub(super) session_id: String,
}

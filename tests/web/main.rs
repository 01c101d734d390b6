//! Tests of the web UI: the real server on port 0 with a fresh database per
//! test, driven by real Chromium through chromedriver (`pages`) and over
//! plain HTTP (`forms`). Chromium and chromedriver are required: without
//! them the browser tests fail, saying what to install.

mod api_docs;
mod browser;
mod contests;
mod downloads;
mod forms;
mod grundy;
mod imports;
// The API tests' fixture, shared rather than copied; this binary uses part
// of it.
#[allow(dead_code)]
#[path = "../api/helpers.rs"]
mod helpers;
mod live;
mod log;
mod matrices;
mod pages;
mod plotted;
mod practice;
mod rejudgings;
mod stress;
mod testcases;
mod tokens;

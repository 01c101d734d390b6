//! The solutions × testcases matrix for setters and admins: every setter
//! solution in a problem's folder judged by the workers on every testcase
//! under the raised time limit (the limit times problemtools'
//! `time_limit_to_tle`, chosen when the run starts), then reviewed by
//! problemtools' rule with an `ac_to_time_limit` chosen at each reading
//! (see [`crate::matrix`]), as `nimjudge verify --matrix` does on one host.

use super::{App, AppError, Caller};
use crate::{
    catalog,
    domain::{MatrixReport, MatrixRun, ProblemId, Verdict},
    matrix::{self, Cell, Multipliers, Review, Row},
    store::NewMatrixItem,
};

/// A run with its review, once every solution is judged.
#[derive(Debug, Clone)]
pub struct ReviewedMatrix {
    pub report: MatrixReport,
    /// Each solution's row, by path.
    pub rows: Vec<Row>,
    pub review: Option<Review>,
    /// The review's: the slowest accepted time times this must fit.
    pub ac_to_time_limit: f64,
}

impl App {
    /// Starts a matrix run of the setter solutions in the problem's folder
    /// on this host's catalog, each under the limit times
    /// `time_limit_to_tle` (problemtools' default if `None`).
    pub async fn start_matrix_run(
        &self,
        caller: &Caller,
        id: &ProblemId,
        time_limit_to_tle: Option<f64>,
    ) -> Result<MatrixRun, AppError> {
        caller.require_staff()?;
        let multipliers = Multipliers {
            time_limit_to_tle: match time_limit_to_tle {
                Some(value) => {
                    Multipliers::checked("time_limit_to_tle", value).map_err(AppError::Invalid)?
                }
                None => Multipliers::default().time_limit_to_tle,
            },
            ..Multipliers::default()
        };
        let problem = self.problem(caller, id).await?;
        let folder = self.settings.problems_dir.join(id.as_str());
        let found = tokio::task::spawn_blocking(move || {
            let solutions = catalog::solutions(&folder)?;
            solutions
                .into_iter()
                .map(|(path, expected)| {
                    let source = std::fs::read_to_string(&path).map_err(|source| {
                        catalog::CatalogError::Read {
                            path: path.clone(),
                            source,
                        }
                    })?;
                    let name = path
                        .strip_prefix(folder.join("solutions"))
                        .unwrap_or(&path)
                        .to_string_lossy()
                        .into_owned();
                    Ok((path, name, expected, source))
                })
                .collect::<Result<Vec<_>, catalog::CatalogError>>()
        })
        .await
        .map_err(|e| AppError::Internal(format!("reading the solutions failed: {e}")))?
        .map_err(|e| {
            AppError::Unavailable(format!("this host cannot read `{id}`'s solutions: {e}"))
        })?;
        if found.is_empty() {
            return Err(AppError::Conflict(format!(
                "problem `{id}` has no setter solutions (solutions/<verdict>/ in its folder)"
            )));
        }
        let mut items = Vec::with_capacity(found.len());
        for (path, solution, expected, source) in found {
            let language = self
                .programs
                .language_of_file(&path)
                .map_err(|why| AppError::Conflict(format!("{solution}: {why}")))?;
            items.push(NewMatrixItem {
                solution,
                expected,
                language: language.config.id.clone(),
                source,
            });
        }
        let raised = multipliers.raised_limit_ms(problem.time_limit_ms);
        let run = self
            .store
            .create_matrix_run(id, caller.name(), problem.time_limit_ms, raised, &items)
            .await?;
        for _ in 0..items.len().min(64) {
            self.signals.job_added();
        }
        Ok(run)
    }

    /// A problem's latest matrix runs, newest first.
    pub async fn matrix_runs(
        &self,
        caller: &Caller,
        id: &ProblemId,
    ) -> Result<Vec<MatrixRun>, AppError> {
        caller.require_staff()?;
        self.problem(caller, id).await?;
        Ok(self.store.matrix_runs_of_problem(id).await?)
    }

    /// A matrix run with its rows and, once every solution is judged, its
    /// review with `ac_to_time_limit` (problemtools' default if `None`).
    pub async fn matrix(
        &self,
        caller: &Caller,
        run: i64,
        ac_to_time_limit: Option<f64>,
    ) -> Result<ReviewedMatrix, AppError> {
        caller.require_staff()?;
        let ac_to_time_limit = match ac_to_time_limit {
            Some(value) => {
                Multipliers::checked("ac_to_time_limit", value).map_err(AppError::Invalid)?
            }
            None => Multipliers::default().ac_to_time_limit,
        };
        let report = self
            .store
            .matrix_report(run)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no matrix run {run}")))?;
        let rows: Vec<Row> = report
            .solutions
            .iter()
            .map(|s| Row {
                solution: s.solution.clone(),
                expected: s.expected,
                cells: if s.results.is_empty() {
                    Err(s.verdict.unwrap_or(Verdict::IE))
                } else {
                    Ok(s.results.iter().map(Cell::from).collect())
                },
            })
            .collect();
        let (limit, raised) = (report.run.time_limit_ms, report.run.raised_limit_ms);
        let review = (report.run.judged == report.run.solutions)
            .then(|| matrix::review(&rows, limit, raised, ac_to_time_limit));
        Ok(ReviewedMatrix {
            report,
            rows,
            review,
            ac_to_time_limit,
        })
    }
}

//! Problems and testcases: everyone reads problems and public testcases;
//! setters and admins see hidden ones, add, hide and delete the testcases
//! they added, and rejudge a problem. To a contestant a hidden testcase does
//! not exist: asking for it is refused as a missing one, so its existence is
//! not revealed either.

use std::collections::{BTreeMap, HashSet};

use super::{App, AppError, Caller};
use crate::{
    api::{ImportedPackage, NewTestcase, TestcaseCreated},
    domain::{
        PackageFormat, Problem, ProblemId, ReferenceStatus, Testcase, TestcaseName, TestcaseOrigin,
    },
    kattis::{
        self, KattisError,
        import::{ImportOptions, InstallError, Package},
    },
    solver,
    store::{Standing, TestcaseChange, now_ms},
    zip_archive::StoredZip,
};

/// The largest Kattis package made (the bundled ones are at most 30 MB).
const MAX_KATTIS_PACKAGE_BYTES: usize = 256 << 20;

impl App {
    /// The problems `caller` may not see now: for contestants, those of a
    /// contest that has not started.
    pub(super) async fn embargoed(&self, caller: &Caller) -> Result<HashSet<ProblemId>, AppError> {
        if caller.role().is_staff() {
            return Ok(HashSet::new());
        }
        Ok(self
            .store
            .problems_of_unended_contests(now_ms())
            .await?
            .into_iter()
            .filter_map(|(problem, started)| (!started).then_some(problem))
            .collect())
    }

    /// Whether `caller` may have the solver core's answers for a problem
    /// (the Grundy plot, practice games against the judge): not a
    /// contestant while a contest of it runs, as they would solve it for
    /// them. Staff always may.
    pub async fn practice_open(&self, caller: &Caller, id: &ProblemId) -> Result<bool, AppError> {
        Ok(caller.role().is_staff()
            || !self
                .store
                .problems_of_unended_contests(now_ms())
                .await?
                .contains(&(id.clone(), true)))
    }

    /// Refuses what [`App::practice_open`] does not allow (403).
    pub async fn check_practice_open(
        &self,
        caller: &Caller,
        id: &ProblemId,
    ) -> Result<(), AppError> {
        if !self.practice_open(caller, id).await? {
            return Err(AppError::Forbidden(format!(
                "problem `{id}` is in a contest that is running: its Grundy plot and practice \
                 games open again when the contest ends"
            )));
        }
        Ok(())
    }

    /// Refuses a problem `caller` may not see now as a missing one, so its
    /// existence is not revealed either.
    pub(super) async fn check_visible(
        &self,
        caller: &Caller,
        id: &ProblemId,
    ) -> Result<(), AppError> {
        if self.embargoed(caller).await?.contains(id) {
            return Err(AppError::NotFound(format!("no problem `{id}`")));
        }
        Ok(())
    }

    /// Every problem `caller` may see, by id, without statements.
    pub async fn problems(&self, caller: &Caller) -> Result<Vec<Problem>, AppError> {
        let embargoed = self.embargoed(caller).await?;
        let mut problems = self.store.problems().await?;
        problems.retain(|problem| !embargoed.contains(&problem.id));
        problems.iter_mut().for_each(mark_interactive);
        Ok(problems)
    }

    /// Every problem's title, by id, for lists that name problems.
    pub async fn problem_titles(&self) -> Result<BTreeMap<ProblemId, String>, AppError> {
        Ok(self
            .store
            .problems()
            .await?
            .into_iter()
            .map(|problem| (problem.id, problem.title))
            .collect())
    }

    /// One problem with its statement, if `caller` may see it.
    pub async fn problem(&self, caller: &Caller, id: &ProblemId) -> Result<Problem, AppError> {
        self.check_visible(caller, id).await?;
        self.stored_problem(id).await
    }

    /// One problem with its statement, whoever asks.
    async fn stored_problem(&self, id: &ProblemId) -> Result<Problem, AppError> {
        let mut problem = self
            .store
            .problem(id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no problem `{id}`")))?;
        mark_interactive(&mut problem);
        Ok(problem)
    }

    /// Where `caller` stands on each problem they submitted to.
    pub async fn standings(
        &self,
        caller: &Caller,
    ) -> Result<BTreeMap<ProblemId, Standing>, AppError> {
        Ok(self.store.standings(caller.name()).await?)
    }

    /// The testcases of a problem `caller` may see: public ones, and hidden
    /// ones too for setters and admins.
    pub async fn testcases(
        &self,
        caller: &Caller,
        id: &ProblemId,
    ) -> Result<Vec<Testcase>, AppError> {
        self.problem(caller, id).await?;
        let staff = caller.role().is_staff();
        let mut testcases = self.store.testcases(id, staff).await?;
        if !staff {
            testcases.iter_mut().for_each(|t| t.reference_error = None);
        }
        Ok(testcases)
    }

    /// The public testcases of a problem, for every role: the ones answers
    /// are submitted to.
    pub async fn public_testcases(
        &self,
        caller: &Caller,
        id: &ProblemId,
    ) -> Result<Vec<Testcase>, AppError> {
        self.problem(caller, id).await?;
        let mut testcases = self.store.testcases(id, false).await?;
        testcases.iter_mut().for_each(|t| t.reference_error = None);
        Ok(testcases)
    }

    /// A public testcase's input, for anyone; `None` for a testcase that
    /// is hidden or gone (deleted since it was listed). Never a hidden
    /// input, whoever asks.
    pub async fn public_input(
        &self,
        caller: &Caller,
        id: &ProblemId,
        name: &TestcaseName,
    ) -> Result<Option<String>, AppError> {
        self.check_visible(caller, id).await?;
        Ok(match self.store.testcase(id, name).await? {
            Some((testcase, input)) if !testcase.hidden => Some(input),
            _ => None,
        })
    }

    /// A testcase's input: a public one for anyone, a hidden one for
    /// setters and admins; to a contestant a hidden testcase is missing.
    pub async fn testcase_input(
        &self,
        caller: &Caller,
        id: &ProblemId,
        name: &TestcaseName,
    ) -> Result<String, AppError> {
        self.check_visible(caller, id).await?;
        match self.store.testcase(id, name).await? {
            Some((testcase, input)) if !testcase.hidden || caller.role().is_staff() => Ok(input),
            _ => Err(AppError::NotFound(format!(
                "problem `{id}` has no testcase `{name}`"
            ))),
        }
    }

    /// Adds a setter's testcase: staff only, an existing problem, an input
    /// the validator accepts (refused quoting it), a free name (conflict).
    /// A worker then computes the reference output: the solver core, or for
    /// a problem without one its reference solution in the sandbox.
    pub async fn add_testcase(
        &self,
        caller: &Caller,
        id: &ProblemId,
        body: NewTestcase,
    ) -> Result<TestcaseCreated, AppError> {
        caller.require_staff()?;
        self.stored_problem(id).await?;
        if has_solver(id) {
            validate_input(id, body.input.clone()).await?;
        } else if self.store.reference_solution(id).await?.is_none() {
            return Err(AppError::Invalid(format!(
                "problem `{id}` has no solver and its problem.toml names no reference_solution \
                 (an accepted solution under solutions/) to compute the references of added \
                 testcases: name one, or add testcases to its package and import it again"
            )));
        } else if body.input.trim().is_empty() {
            // Without a validator only an empty input is refused here; the
            // reference solution's failure on any other shows as the
            // testcase's failed reference.
            return Err(AppError::Invalid("invalid input: it is empty".into()));
        }
        let added = self
            .store
            .add_testcase(id, &body.name, &body.input, body.hidden, caller.name())
            .await?;
        if !added {
            return Err(AppError::Conflict(format!(
                "problem `{id}` already has a testcase `{}`",
                body.name
            )));
        }
        self.catalog.forget_rules();
        // A worker computes the reference output.
        self.signals.job_added();
        let url = format!("/api/problems/{id}/testcases/{}/input", body.name);
        Ok(TestcaseCreated {
            name: body.name,
            hidden: body.hidden,
            status: ReferenceStatus::Pending,
            url,
        })
    }

    /// A problem as a Kattis problem package, zipped in a folder named by
    /// its short name (see [`crate::kattis`]): staff only, as it holds every
    /// hidden input and its answer. Made from the problem's folder in the
    /// catalog, with the testcases setters added through the API under
    /// `data/secret`, in `format`. The zip's file name and its bytes.
    pub async fn kattis_package(
        &self,
        caller: &Caller,
        id: &ProblemId,
        format: PackageFormat,
    ) -> Result<(String, Vec<u8>), AppError> {
        caller.require_staff()?;
        self.stored_problem(id).await?;
        // A problem without a solver exports its setters' testcases with
        // the references its reference solution computed.
        let by_solver = has_solver(id);
        let mut added = Vec::new();
        for testcase in self.store.testcases(id, true).await? {
            if testcase.origin != TestcaseOrigin::Setter {
                continue;
            }
            let Some((_, input)) = self.store.testcase(id, &testcase.name).await? else {
                continue;
            };
            let answer = if by_solver {
                None
            } else {
                let name = &testcase.name;
                match self.store.current_reference_output(id, name).await? {
                    Some(output) => Some(output),
                    None => {
                        return Err(AppError::Conflict(format!(
                            "no Kattis package of `{id}`: testcase `{name}` has no reference yet \
                             ({}{}): delete it or wait for the reference solution",
                            testcase.status,
                            testcase
                                .reference_error
                                .as_deref()
                                .map(|why| format!(": {why}"))
                                .unwrap_or_default()
                        )));
                    }
                }
            };
            added.push((testcase.name, input, answer));
        }
        let folder = self.settings.problems_dir.join(id.as_str());
        let short_name = kattis::short_name(id);
        let (package_id, prefix) = (id.clone(), short_name.clone());
        let zipped = tokio::task::spawn_blocking(move || {
            let refusal = |e| kattis_refusal(&package_id, e);
            let mut files = kattis::package(&folder, format).map_err(refusal)?;
            files.extend(kattis::secret_testcases(&package_id, &added).map_err(refusal)?);
            let mut zip = StoredZip::with_limit(MAX_KATTIS_PACKAGE_BYTES);
            for file in &files {
                zip.add(&format!("{prefix}/{}", file.path.display()), &file.contents)
                    .map_err(|e| AppError::Internal(format!("the package does not fit: {e}")))?;
            }
            zip.finish()
                .map_err(|e| AppError::Internal(format!("cannot write the package: {e}")))
        })
        .await
        .map_err(|e| AppError::Internal(format!("the package was not made: {e}")))??;
        Ok((format!("{short_name}.zip"), zipped))
    }

    /// Imports a zipped Kattis problem package as a hosted problem
    /// (setters and admins): its folder is put into the catalog whole (see
    /// [`kattis::import::install`]) and synced into the store, so every
    /// host judges it at once and this one hosts it from its folder after a
    /// restart. A package nimjudge cannot host is refused naming the file
    /// and line; an id the store or the catalog holds already is a
    /// conflict, and nothing is written.
    pub async fn import_kattis_package(
        &self,
        caller: &Caller,
        archive: Vec<u8>,
        options: ImportOptions,
    ) -> Result<ImportedPackage, AppError> {
        caller.require_staff()?;
        let imported = tokio::task::spawn_blocking(move || {
            let package = Package::read_zip("package", &archive)?;
            kattis::import::import(&package, &options)
        })
        .await
        .map_err(|e| AppError::Internal(format!("the import did not finish: {e}")))?
        .map_err(|e| AppError::Invalid(format!("the package cannot be imported: {e}")))?;
        let id = imported.id.clone();
        if self.store.problem(&id).await?.is_some() {
            return Err(AppError::Conflict(format!(
                "a problem `{id}` is hosted already (import it under another id)"
            )));
        }
        let into = self.settings.problems_dir.to_path_buf();
        let (problem, notes) = tokio::task::spawn_blocking(move || {
            kattis::import::install(&imported, &into).map(|problem| (problem, imported.notes))
        })
        .await
        .map_err(|e| AppError::Internal(format!("the import did not finish: {e}")))?
        .map_err(|e| match e {
            InstallError::Exists(_) => AppError::Conflict(e.to_string()),
            InstallError::Load(_) => {
                AppError::Invalid(format!("the package cannot be imported: {e}"))
            }
            InstallError::Write(_) => {
                AppError::Unavailable(format!("this host cannot write the problem's folder: {e}"))
            }
        })?;
        let samples = problem
            .testcases
            .iter()
            .filter(|t| t.origin == TestcaseOrigin::Sample)
            .count();
        let summary = ImportedPackage {
            problem: problem.id.clone(),
            title: problem.title.clone(),
            testcases: problem.testcases.len(),
            samples,
            notes,
        };
        self.store.sync_problem(&problem.into_definition()).await?;
        self.catalog.forget_rules();
        Ok(summary)
    }

    /// Hides or shows a setter's testcase, with the same refusals as
    /// [`App::remove_testcase`]. Verdicts already given stay until a
    /// rejudge.
    pub async fn set_testcase_hidden(
        &self,
        caller: &Caller,
        id: &ProblemId,
        name: &TestcaseName,
        hidden: bool,
    ) -> Result<(), AppError> {
        caller.require_staff()?;
        let change = self.store.set_testcase_hidden(id, name, hidden).await?;
        self.catalog.forget_rules();
        setter_change(change, id, name, "change it")
    }

    /// Deletes a setter's testcase: staff only, an existing testcase, and
    /// never one from the problem folder (conflict, saying to remove it
    /// from `problem.toml`).
    pub async fn remove_testcase(
        &self,
        caller: &Caller,
        id: &ProblemId,
        name: &TestcaseName,
    ) -> Result<(), AppError> {
        caller.require_staff()?;
        let change = self.store.delete_testcase(id, name).await?;
        self.catalog.forget_rules();
        setter_change(change, id, name, "remove it")
    }

    /// Queues every judged submission of a problem again: staff only, an
    /// existing problem. Returns how many were queued.
    pub async fn requeue_problem(&self, caller: &Caller, id: &ProblemId) -> Result<u64, AppError> {
        caller.require_staff()?;
        self.stored_problem(id).await?;
        let queued = self.store.rejudge_problem(id, caller.name()).await?;
        for _ in 0..queued.min(64) {
            self.signals.job_added();
        }
        Ok(queued)
    }

    /// How many submissions of a problem wait for a verdict (a rejudge's
    /// progress): staff only.
    pub async fn unjudged_of_problem(
        &self,
        caller: &Caller,
        id: &ProblemId,
    ) -> Result<i64, AppError> {
        caller.require_staff()?;
        Ok(self.store.unjudged_of_problem(id).await?)
    }
}

/// Validates an input with the problem's validator, on the blocking pool;
/// a refusal carries the validator's message.
pub(super) async fn validate_input(problem: &ProblemId, input: String) -> Result<(), AppError> {
    let Some(solver) = solver::find(problem.as_str()) else {
        return Err(AppError::Invalid(format!(
            "problem `{problem}` has no validator here (it was imported with its answer files)"
        )));
    };
    tokio::task::spawn_blocking(move || solver.validate(&input))
        .await?
        .map_err(|e| AppError::Invalid(format!("invalid input: {e}")))
}

/// A setter's change to a testcase as a use case answers it: not found for
/// a missing one, a conflict for one from the problem folder, saying to
/// `what` there.
fn setter_change(
    change: TestcaseChange,
    id: &ProblemId,
    name: &TestcaseName,
    what: &str,
) -> Result<(), AppError> {
    match change {
        TestcaseChange::Done => Ok(()),
        TestcaseChange::Missing => Err(AppError::NotFound(format!(
            "problem `{id}` has no testcase `{name}`"
        ))),
        TestcaseChange::Bundled(origin) => Err(AppError::Conflict(format!(
            "testcase `{name}` is a {origin} testcase from problems/{id}/problem.toml; \
             {what} there (the next start syncs the change), not through the API"
        ))),
    }
}

/// Sets what the solver core says of a stored problem: whether programs
/// play its game against the judge, and whether it takes answers.
fn mark_interactive(problem: &mut Problem) {
    problem.interactive = is_interactive(&problem.id);
    problem.takes_answers = has_solver(&problem.id) && !problem.interactive;
}

/// Whether the solver core knows `problem` (an imported one has answer
/// files instead).
pub(super) fn has_solver(problem: &ProblemId) -> bool {
    solver::find(problem.as_str()).is_some()
}

/// Whether programs play `problem`'s game against the judge.
pub(super) fn is_interactive(problem: &ProblemId) -> bool {
    solver::find(problem.as_str()).is_some_and(|s| s.interactive())
}

/// Why a problem has no Kattis package, as the API says it: a problem
/// that cannot be exported yet is a conflict, a folder this host cannot
/// read makes the service unavailable here.
fn kattis_refusal(id: &ProblemId, error: KattisError) -> AppError {
    let why = format!("no Kattis package of `{id}`: {error}");
    match error {
        KattisError::Groups(_)
        | KattisError::NoValidator { .. }
        | KattisError::NoJudge { .. }
        | KattisError::InvalidTestcase { .. } => AppError::Conflict(why),
        KattisError::Catalog(_) | KattisError::Read { .. } => AppError::Unavailable(why),
        KattisError::NoSolver(_) | KattisError::NoAnswer { .. } | KattisError::Write { .. } => {
            AppError::Internal(why)
        }
    }
}

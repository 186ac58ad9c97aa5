//! Generation on demand: the estimate, `ensure` (progress, budget, cancel, resume) and the
//! queue of jobs (shared jobs, one at a time, cancel queued and running jobs, resume after a
//! restart). Every generated file is compared byte for byte with a plain `generate`'s.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::common::{material, temp_dir};
use endgame_xiangqi::jobs::{
    self, EnsureError, EnsureOptions, Ensured, JobProgress, JobState, Jobs, Submitted,
};
use endgame_xiangqi::store::source::SOLVE_ON_THE_FLY_MEN;
use endgame_xiangqi::{MaterialIndex, Position, Probe, ProbeError, Rules, Setup, Tablebases};

/// Six men, 18 tables, 4.6 M positions: about a second of work on two cores.
const LARGER: &str = "KRvKAABB";
/// Five men, 12 tables, 1.26 M positions.
const SMALL: &str = "KNvKAAB";

/// The files of `dir`'s `standard` tables, by name.
fn files(dir: &Path) -> Files {
    let tables = dir.join("xiangqi").join("standard");
    let Ok(entries) = std::fs::read_dir(&tables) else { return BTreeMap::new() };
    entries
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect()
}

/// Table files by name.
type Files = BTreeMap<String, Vec<u8>>;

/// How many tables `files` holds: the files named as `Tablebases::path` names them (the file
/// whose presence means the table is there; a table may have other files beside it).
fn tables_in(files: &Files, tables: &Tablebases) -> usize {
    let path = tables.path(material("KvK"));
    let suffix = format!(".{}", path.extension().unwrap().to_string_lossy());
    files.keys().filter(|name| name.ends_with(&suffix)).count()
}

/// The files a plain `generate` of `m` writes (generated once per material per test run).
fn reference(m: &str) -> &'static Files {
    static DONE: OnceLock<Mutex<BTreeMap<String, &'static Files>>> = OnceLock::new();
    let mut done = DONE.get_or_init(Mutex::default).lock().unwrap();
    done.entry(m.to_string()).or_insert_with(|| {
        let dir = temp_dir("jobs", &format!("reference-{m}"));
        Tablebases::open(&dir, Rules::Standard).generate(&[material(m)], &|_| {}).unwrap();
        let files = Box::leak(Box::new(files(&dir)));
        std::fs::remove_dir_all(&dir).unwrap();
        files
    })
}

fn options(cancel: Option<&AtomicBool>) -> EnsureOptions<'_> {
    EnsureOptions { budget: u64::MAX, cancel, speed: endgame_xiangqi::store::cost::default_speed() }
}

#[test]
fn the_estimate_counts_the_missing_tables_their_positions_and_memory() {
    let dir = temp_dir("jobs", "estimate");
    let tables = Tablebases::open(&dir, Rules::Standard);
    let m = material(SMALL);
    let e = jobs::estimate(&tables, m, 1e6).unwrap();
    let all = m.with_smaller();
    assert_eq!((e.tables, e.tables_in_all), (all.len(), all.len()));
    let positions: u64 = all.iter().map(|&m| MaterialIndex::new(m).len() as u64).sum();
    assert_eq!(e.positions, positions);
    assert_eq!(e.largest, Some(m));
    assert_eq!(e.memory_bytes, Tablebases::memory_estimate(m));
    assert!((e.seconds - positions as f64 / 1e6).abs() < 1e-6, "{e:?}");
    assert_eq!(e.command(), format!("endgame xiangqi generate {SMALL} --rules standard"));
    let text = e.describe();
    assert!(text.starts_with(&format!("{SMALL}: 12 tables, 1,257,984 positions, about 1 s and ")), "{text}");
    let memory =
        text.strip_prefix(&format!("{SMALL}: 12 tables, 1,257,984 positions, about 1 s and ")).unwrap();
    assert_eq!(memory, format!("{} of memory", endgame_core::units::bytes(e.memory_bytes)));
    // Materials of up to 4 men are solved in memory: nothing to generate for them alone.
    let small = jobs::estimate(&tables, material("KNvKA"), 1e6).unwrap();
    assert!(small.is_done() && small.tables_in_all > 0, "{small:?}");
    assert_eq!(
        small.describe(),
        "KNvKA: nothing to generate (materials of up to 4 men are solved in memory)"
    );
    // With the tables of one smaller material there, it is not counted.
    Tablebases::open(&dir, Rules::Standard).generate(&[material("KNvKAA")], &|_| {}).unwrap();
    let e2 = jobs::estimate(&tables, m, 1e6).unwrap();
    let there = material("KNvKAA").with_smaller();
    assert_eq!(e2.tables, all.len() - there.len());
    let there_positions: u64 = there.iter().map(|&m| MaterialIndex::new(m).len() as u64).sum();
    assert_eq!(e2.positions, positions - there_positions);
    // Once all are there: generated, no time (and not -0.0 s: an empty sum of f64 is -0.0).
    Tablebases::open(&dir, Rules::Standard).generate(&[m], &|_| {}).unwrap();
    let done = jobs::estimate(&tables, m, 1e6).unwrap();
    assert!(done.is_done(), "{done:?}");
    assert_eq!((done.tables, done.tables_in_all, done.positions, done.memory_bytes), (0, 12, 0, 0));
    assert!(done.seconds == 0.0 && done.seconds.is_sign_positive(), "{done:?}");
    assert_eq!(done.describe(), format!("{SMALL}: generated (12 tables, all there)"));
    // Beyond 64 bits: refused at once.
    let huge = material("KAABBNNRRCCPPPPPvKAABBNNRRCCPPPPP");
    assert!(matches!(jobs::estimate(&tables, huge, 1e6), Err(ProbeError::BeyondTables { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ensure_generates_the_files_of_generate_with_progress_then_answers_at_once() {
    let dir = temp_dir("jobs", "ensure");
    let tables = Tablebases::open(&dir, Rules::Standard);
    let m = material(SMALL);
    let position =
        Position::from_setup("3ak4/4a4/4b4/9/9/9/9/4N4/9/4K4 w".parse::<Setup>().unwrap()).unwrap();
    assert!(tables.probe(&position).unwrap_err().is_not_generated());
    let reports: Mutex<Vec<JobProgress>> = Mutex::default();
    let done = jobs::ensure(&tables, m, options(None), &|p| reports.lock().unwrap().push(p.clone())).unwrap();
    let Ensured::Generated { estimate, summary, .. } = done else { panic!("{done:?}") };
    assert_eq!(summary.generated, estimate.tables);
    assert_eq!(&files(&dir), reference(SMALL));
    // The probe that failed answers now, from the same store.
    assert!(tables.probe(&position).is_ok());
    let reports = reports.into_inner().unwrap();
    assert!(reports.len() >= 2, "{reports:?}");
    let last = reports.last().unwrap();
    assert_eq!((last.materials_done, last.materials_total), (estimate.tables, estimate.tables));
    assert_eq!((last.positions_done, last.positions_total), (estimate.positions, estimate.positions));
    assert_eq!(last.seconds_left, 0.0);
    for pair in reports.windows(2) {
        assert!(pair[0].materials_done <= pair[1].materials_done, "{pair:?}");
        assert!(pair[0].positions_done <= pair[1].positions_done, "{pair:?}");
    }
    assert!(reports.iter().all(|p| p.positions_per_second > 0.0 && p.seconds_left.is_finite()));
    assert!(reports.iter().any(|p| p.current == Some(m)));
    // Everything is there now.
    let again = jobs::ensure(&tables, m, options(None), &|_| panic!("nothing to report")).unwrap();
    assert!(matches!(again, Ensured::Already(e) if e.is_done()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn over_the_budget_nothing_starts() {
    let dir = temp_dir("jobs", "budget");
    let tables = Tablebases::open(&dir, Rules::Standard);
    let m = material(SMALL);
    let needed = jobs::estimate(&tables, m, 1e6).unwrap().memory_bytes;
    let tight = EnsureOptions { budget: needed - 1, ..options(None) };
    let err = jobs::ensure(&tables, m, tight, &|_| panic!("nothing starts")).unwrap_err();
    let EnsureError::OverBudget { estimate, budget } = &err else { panic!("{err:?}") };
    assert_eq!((estimate.memory_bytes, *budget), (needed, needed - 1));
    let text = err.to_string();
    assert!(text.contains(&format!("endgame xiangqi generate {SMALL} --rules standard")), "{text}");
    assert!(text.contains("12 tables"), "{text}");
    assert!(files(&dir).is_empty());
    // The queue refuses it the same way.
    let queue = Jobs::new(needed - 1);
    let err = queue.submit(&Arc::new(tables), m).unwrap_err();
    assert!(matches!(err, EnsureError::OverBudget { .. }), "{err:?}");
    assert!(files(&dir).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Cancelled in the middle of a solve (from the progress report: deterministic), the tables
/// finished stay and no partial file is left; the next `ensure` generates only the rest, and
/// the files are those of a plain generation.
#[test]
fn a_cancelled_generation_keeps_its_tables_and_resumes() {
    let dir = temp_dir("jobs", "cancel");
    let tables = Tablebases::open(&dir, Rules::Standard);
    let m = material(SMALL);
    let before = jobs::estimate(&tables, m, 1e6).unwrap();
    let cancel = AtomicBool::new(false);
    let stop_in = material("KNvKAA");
    let err = jobs::ensure(&tables, m, options(Some(&cancel)), &|p| {
        if p.current == Some(stop_in) {
            cancel.store(true, Ordering::Relaxed);
        }
    })
    .unwrap_err();
    assert!(matches!(err, EnsureError::Cancelled), "{err:?}");
    let kept = files(&dir);
    let kept_tables = tables_in(&kept, &tables);
    assert!(kept_tables > 0 && kept_tables < before.tables, "{:?}", kept.keys());
    assert!(!tables.path(stop_in).exists());
    assert!(!kept.keys().any(|k| k.ends_with(".tmp")), "a temporary file was left: {:?}", kept.keys());
    for (name, bytes) in &kept {
        assert_eq!(Some(bytes), reference(SMALL).get(name), "{name}");
    }
    let after = jobs::estimate(&tables, m, 1e6).unwrap();
    assert_eq!(after.tables, before.tables - kept_tables);
    let done = jobs::ensure(&tables, m, options(None), &|_| {}).unwrap();
    let Ensured::Generated { summary, .. } = done else { panic!("{done:?}") };
    assert_eq!((summary.generated, summary.kept), (after.tables, kept_tables));
    assert_eq!(&files(&dir), reference(SMALL));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Waits until job `id` satisfies `until`, at most a minute.
fn wait_for(queue: &Jobs, id: u64, until: impl Fn(&jobs::JobStatus) -> bool) -> jobs::JobStatus {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let mut version = 0;
    loop {
        let status = queue.wait_change(id, version, Duration::from_millis(200)).expect("the job");
        if until(&status) || status.state.is_finished() {
            return status;
        }
        assert!(std::time::Instant::now() < deadline, "waited a minute: {status:?}");
        version = status.version;
    }
}

#[test]
fn the_queue_shares_jobs_runs_one_at_a_time_and_cancels_queued_jobs() {
    let dir = temp_dir("jobs", "queue");
    let tables = Arc::new(Tablebases::open(&dir, Rules::Standard));
    let queue = Jobs::new(u64::MAX);
    let Submitted::Job(first) = queue.submit(&tables, material(LARGER)).unwrap() else { panic!() };
    // Nothing before it: it starts (not "queued" behind nothing).
    assert_eq!((first.state, first.ahead), (JobState::Starting, 0), "{first:?}");
    // The same material again joins the job.
    let Submitted::Job(joined) = queue.submit(&tables, material(LARGER)).unwrap() else { panic!() };
    assert_eq!(joined.id, first.id);
    assert!([JobState::Starting, JobState::Running].contains(&joined.state), "{joined:?}");
    // Another material waits behind it (one job ahead), a third behind both (two ahead); the
    // third is cancelled while it waits.
    let Submitted::Job(second) = queue.submit(&tables, material("KCvKAB")).unwrap() else { panic!() };
    let Submitted::Job(third) = queue.submit(&tables, material("KPvKAAB")).unwrap() else { panic!() };
    assert_ne!(second.id, first.id);
    assert_eq!((second.state, second.ahead), (JobState::Queued, 1), "{second:?}");
    assert_eq!((third.state, third.ahead), (JobState::Queued, 2), "{third:?}");
    let status = queue.status(second.id).unwrap();
    assert_eq!((status.state, status.ahead), (JobState::Queued, 1), "{status:?}");
    let cancelled = queue.cancel(third.id).unwrap();
    assert_eq!(cancelled.state, JobState::Cancelled);
    assert_eq!(queue.status(second.id).unwrap().ahead, 1);
    let done = queue.wait(first.id).unwrap();
    assert_eq!(done.state, JobState::Done, "{done:?}");
    assert_eq!(done.progress.materials_done, done.estimate.tables);
    assert_eq!(done.progress.seconds_left, 0.0);
    let done2 = queue.wait(second.id).unwrap();
    assert_eq!(done2.state, JobState::Done, "{done2:?}");
    // Never more than one at a time: the second started after the first was done (its
    // estimate, made while the first ran, counted the tables the first made later).
    assert!(done2.progress.materials_done <= done2.estimate.tables);
    // The cancelled one never ran: its material has no file.
    assert!(!tables.path(material("KPvKAAB")).exists());
    assert_eq!(queue.status(third.id).unwrap().state, JobState::Cancelled);
    // Now the tables are there: no job.
    assert!(matches!(queue.submit(&tables, material(LARGER)).unwrap(), Submitted::Done(e) if e.is_done()));
    let mut expected = reference(LARGER).clone();
    expected.extend(reference("KCvKAB").clone());
    assert_eq!(files(&dir), expected);
    // The queue measured its speed.
    assert!(queue.speed() > 0.0);
    assert!(queue.status(12345).is_none() && queue.cancel(12345).is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A running job cancelled after its first tables: cancelled, the tables finished stay; a new
/// queue (a restarted server) over the same directory generates only the rest.
#[test]
fn a_running_job_is_cancelled_and_resumes_after_a_restart() {
    let dir = temp_dir("jobs", "restart");
    let m = material(LARGER);
    // The files to write: one per pair of colour twins.
    let total;
    {
        let tables = Arc::new(Tablebases::open(&dir, Rules::Standard));
        let queue = Jobs::new(u64::MAX);
        let Submitted::Job(job) = queue.submit(&tables, m).unwrap() else { panic!() };
        total = job.estimate.tables;
        let running = wait_for(&queue, job.id, |s| s.progress.materials_done >= 1);
        assert_eq!(running.state, JobState::Running, "{running:?}");
        assert!(running.progress.materials_total == job.estimate.tables);
        let _ = queue.cancel(job.id);
        let over = queue.wait(job.id).unwrap();
        assert_eq!(over.state, JobState::Cancelled, "{over:?}");
        assert!(over.error.is_none());
    }
    let kept = files(&dir);
    let tables = Arc::new(Tablebases::open(&dir, Rules::Standard));
    let kept_tables = tables_in(&kept, &tables);
    assert!(kept_tables > 0 && kept_tables < total, "{:?}", kept.keys());
    let queue = Jobs::new(u64::MAX);
    let Submitted::Job(job) = queue.submit(&tables, m).unwrap() else { panic!() };
    assert_eq!(job.estimate.tables, total - kept_tables);
    let done = queue.wait(job.id).unwrap();
    assert_eq!(done.state, JobState::Done, "{done:?}");
    assert_eq!(&files(&dir), reference(LARGER));
    assert!(m.with_smaller().iter().all(|&s| s.men() <= SOLVE_ON_THE_FLY_MEN || tables.has_file(s)));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The files of `dir`'s tables under `rules`, by name.
fn rule_files(dir: &Path, rules: Rules) -> Files {
    let tables = Tablebases::open(dir, rules);
    let Ok(entries) = std::fs::read_dir(tables.dir()) else { return BTreeMap::new() };
    entries
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect()
}

/// Under a ban a generation needs less than its estimate: without predecessor lists (the
/// passes generate un-moves), slower. A budget of the least memory is taken and gives the files
/// of a generation with every list; one byte less is refused, by `ensure`, the queue and
/// `generate_within` alike.
#[test]
fn under_a_ban_the_least_memory_generates_the_same_files() {
    let rules = Rules::CheckAndChase;
    let m = material(SMALL);
    let full = temp_dir("jobs", "least-full");
    Tablebases::open(&full, rules).generate(&[m], &|_| {}).unwrap();
    let expected = rule_files(&full, rules);
    assert!(!expected.is_empty());
    std::fs::remove_dir_all(&full).unwrap();

    let dir = temp_dir("jobs", "least");
    let tables = Tablebases::open(&dir, rules);
    let e = jobs::estimate(&tables, m, 1e6).unwrap();
    let least = e.least_memory_bytes;
    assert!(least < e.memory_bytes, "{e:?}");
    assert!(e.fits(least) && !e.fits(least - 1), "{e:?}");
    let text = e.describe();
    let at_least = format!(" of memory (at least {}, slower)", endgame_core::units::bytes(least));
    assert!(text.ends_with(&at_least), "{text}");
    // One byte short: refused before anything is written.
    let tight = EnsureOptions { budget: least - 1, ..options(None) };
    let err = jobs::ensure(&tables, m, tight, &|_| panic!("nothing starts")).unwrap_err();
    assert!(matches!(&err, EnsureError::OverBudget { budget, .. } if *budget == least - 1), "{err:?}");
    let err = Jobs::new(least - 1).submit(&Arc::new(Tablebases::open(&dir, rules)), m).unwrap_err();
    assert!(matches!(err, EnsureError::OverBudget { .. }), "{err:?}");
    let never = AtomicBool::new(false);
    let err = tables.generate_within(&[m], &|_| {}, &never, 1 << 20).unwrap_err();
    assert!(matches!(err, endgame_xiangqi::GenerateError::Memory { .. }), "{err:?}");
    assert!(rule_files(&dir, rules).is_empty());
    // The least memory: generated, the same files.
    let budget = EnsureOptions { budget: least, ..options(None) };
    let done = jobs::ensure(&tables, m, budget, &|_| {}).unwrap();
    assert!(matches!(done, Ensured::Generated { .. }), "{done:?}");
    assert_eq!(rule_files(&dir, rules), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

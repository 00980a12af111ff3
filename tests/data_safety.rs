//! No data lost (issue 48), end to end with the `haifu` binary on logs its simulator writes: an ingest killed
//! with `kill -9` at random points of its commit, two writers at once, inputs made to blow memory, a FIFO among
//! the inputs, a dataset ingested into itself, a disk that fills, `mine` and `style build` killed over an old
//! output.

mod common;

use std::collections::HashSet;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{haifu, json, Scratch};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_haifu"))
}

/// `n` games of the simulator as mjlog files in `dir` (seed `seed`: other seeds, other games).
fn sim_logs(dir: &Path, n: usize, seed: u64) -> PathBuf {
    let out = haifu(&["sim", "--games", &n.to_string(), "--seed", &seed.to_string(), "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir.to_path_buf()
}

/// The games table's ids.
fn game_ids(ds: &Path) -> Vec<i64> {
    let batches = haifu_ingest::stored::read_columns(ds, "games", &["game_id"]).expect("the games table reads");
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column(0).as_any().downcast_ref::<arrow::array::Int64Array>().expect("Int64 ids");
            c.values().to_vec()
        })
        .collect()
}

/// Every game present exactly once, `want` of them, and `haifu check` clean.
fn holds_each_once(ds: &Path, want: usize, what: &str) {
    let ids = game_ids(ds);
    let distinct: HashSet<i64> = ids.iter().copied().collect();
    assert_eq!(distinct.len(), ids.len(), "{what}: a game is there twice");
    assert_eq!(ids.len(), want, "{what}: games lost or added");
    let out = haifu(&["check", ds.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{what}: check: {}", String::from_utf8_lossy(&out.stdout));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The steps of a commit a kill is aimed at: a part renamed into view, the part list rewritten, the manifest
/// rewritten, a temporary file of `_haifu` written (the manifest's, the quarantine list's or the run line's).
#[derive(Clone, Copy, Debug)]
enum Step {
    PartShown,
    PartList,
    Manifest,
    MetaTemporary,
}

/// Whether the commit has reached `step`, against the dataset as it was before the run.
fn reached(step: Step, ds: &Path, parts_before: usize, meta_before: &[(String, u64)]) -> bool {
    let size = |m: &[(String, u64)], name: &str| m.iter().find(|(n, _)| n == name).map(|(_, s)| *s);
    match step {
        Step::PartShown => visible_parts(ds) > parts_before,
        Step::PartList | Step::Manifest => {
            let name = if matches!(step, Step::PartList) { "parts.jsonl" } else { "manifest.jsonl" };
            size(&meta_files(ds), name) != size(meta_before, name)
        }
        Step::MetaTemporary => meta_files(ds).iter().any(|(n, _)| n.ends_with(".tmp")),
    }
}

fn visible_parts(ds: &Path) -> usize {
    haifu_ingest::dataset::TABLES
        .iter()
        .map(|t| haifu_ingest::parts::files_on_disk(ds, t).map(|f| f.len()).unwrap_or(0))
        .sum()
}

/// `_haifu`'s files and their sizes.
fn meta_files(ds: &Path) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = std::fs::read_dir(ds.join("_haifu"))
        .map(|r| {
            r.flatten()
                .map(|e| (e.file_name().to_string_lossy().into_owned(), e.metadata().map(|m| m.len()).unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A small generator of the kill points (the same points on every run).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// (issue 48, row 1) An ingest killed with SIGKILL at random points of its commit, then run again: every game
/// is there exactly once and `check` passes, until 30 kills have landed in a commit (besides the kills at any
/// moment of a run). Before, about one kill in 30 landed after the manifest's lines and before the run's: the
/// retry skipped the killed run's files as ingested, removed their parts as stale, and its games were lost for
/// good.
#[test]
fn a_kill_at_any_point_of_a_commit_loses_no_game() {
    let s = Scratch::new("safety-kill");
    let base_logs = sim_logs(&s.0.join("base-logs"), 40, 1);
    let more = sim_logs(&s.0.join("more"), 200, 2);
    let base = s.0.join("base");
    json(&haifu(&["ingest", base_logs.to_str().unwrap(), "--out", base.to_str().unwrap(), "--json"]));
    let base_games = game_ids(&base).len();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut killed, mut killed_in_commit) = (0, 0);
    let mut round = 0;
    while killed_in_commit < 30 {
        assert!(round < 100, "only {killed_in_commit} of {round} kills landed in a commit");
        let ds = s.0.join(format!("ds{round}"));
        copy_dir(&base, &ds);
        let (parts, meta) = (visible_parts(&ds), meta_files(&ds));
        let ingest = || {
            let mut c = bin();
            c.args(["ingest", more.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--jobs", "1", "--json"]);
            c.stdout(Stdio::null()).stderr(Stdio::null());
            c
        };
        let mut child = ingest().spawn().unwrap();
        // one kill in five at a random moment of the run, the others at a step of the commit (the manifest's
        // rewrite is where the loss was), at once or a little later
        let anywhere = round % 5 == 4;
        let step = [Step::PartShown, Step::PartList, Step::Manifest, Step::MetaTemporary][round % 4];
        let delay = Duration::from_micros(match (anywhere, rng.below(2)) {
            (true, _) => rng.below(100_000),
            (false, 0) => 0,
            (false, _) => rng.below(1_000),
        });
        let started = Instant::now();
        let mut seen_commit = false;
        while child.try_wait().unwrap().is_none() {
            if anywhere && started.elapsed() >= delay {
                break;
            }
            if !anywhere && reached(step, &ds, parts, &meta) {
                seen_commit = true;
                let at = Instant::now();
                while at.elapsed() < delay {}
                break;
            }
        }
        let _ = child.kill();
        let status = child.wait().unwrap();
        if status.signal() == Some(9) {
            killed += 1;
            killed_in_commit += usize::from(seen_commit);
        }
        let out = ingest().stdout(Stdio::piped()).stderr(Stdio::piped()).output().unwrap();
        assert!(out.status.success(), "round {round}: the retry fails: {}", String::from_utf8_lossy(&out.stderr));
        holds_each_once(&ds, base_games + 200, &format!("round {round} (killed: {})", status.signal() == Some(9)));
        std::fs::remove_dir_all(&ds).unwrap();
        round += 1;
    }
    eprintln!("{killed} of {round} runs killed before they finished, {killed_in_commit} of them in their commit");
}

fn spawn_ingest(logs: &Path, ds: &Path) -> Child {
    bin()
        .args(["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--jobs", "1", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// (issue 48, row 2) Two ingests into one folder, started together or 0.2 s apart in either order: one writes,
/// the other is refused at once naming the writer's pid, and the dataset holds each game once; before, two
/// writers at once lost every game (no part listed) or wrote each twice.
#[test]
fn two_writers_never_share_a_dataset() {
    let s = Scratch::new("safety-writers");
    // 600 files a run: a third of a second, so that runs 0.2 s apart overlap
    let a = sim_logs(&s.0.join("a"), 600, 3);
    let b = sim_logs(&s.0.join("b"), 600, 4);
    let trials = [(&a, &a, 0u64, 600), (&a, &b, 0, 1200), (&a, &b, 200, 1200), (&b, &a, 200, 1200)];
    for (trial, (first, second, gap, games)) in trials.into_iter().enumerate() {
        let ds = s.0.join(format!("ds{trial}"));
        let one = spawn_ingest(first, &ds);
        std::thread::sleep(Duration::from_millis(gap));
        let two = spawn_ingest(second, &ds);
        let outs = [one.wait_with_output().unwrap(), two.wait_with_output().unwrap()];
        let refused: Vec<usize> = (0..2).filter(|&i| !outs[i].status.success()).collect();
        for &i in &refused {
            let e = String::from_utf8_lossy(&outs[i].stderr);
            assert!(e.contains("is being written by another haifu (pid "), "trial {trial}: {e}");
        }
        assert!(refused.len() <= 1, "trial {trial}: both failed");
        // what was refused is ingested once the other has finished
        for &i in &refused {
            let logs = if i == 0 { first } else { second };
            json(&haifu(&["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--json"]));
        }
        holds_each_once(&ds, games, &format!("trial {trial}"));
        for logs in [first, second] {
            let j = json(&haifu(&["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--json"]));
            assert_eq!(j["files_skipped"], 600, "trial {trial}: a re-run finds every file ingested");
        }
    }
}

/// Runs the command to its end and returns its exit status and its peak resident memory in bytes
/// (`wait4`'s rusage: the child's own maximum).
#[allow(unsafe_code)] // libc has no safe call for wait4
#[allow(clippy::zombie_processes)] // reaped by wait4, which also gives the rusage
fn run_measured(mut cmd: Command) -> (std::process::ExitStatus, u64, String, String) {
    let s = Scratch::new(&format!("measured-{}", std::thread::current().name().unwrap_or("t").replace("::", "-")));
    let (out, err) = (s.0.join("out"), s.0.join("err"));
    let child =
        cmd.stdout(std::fs::File::create(&out).unwrap()).stderr(std::fs::File::create(&err).unwrap()).spawn().unwrap();
    let mut status = 0;
    // SAFETY: a plain rusage struct, zeroed, filled by the kernel for the child we spawned
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: waits for our own child, with valid pointers
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4");
    let status = std::process::ExitStatus::from_raw(status);
    let text = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    (status, usage.ru_maxrss as u64 * 1024, text(&out), text(&err))
}

/// The head of an mjlog that is valid as far as it goes: a game, its players and the deal of East 1.
fn hostile_head() -> String {
    let hai = |s: u8| (0..13).map(|i| (s * 13 + i).to_string()).collect::<Vec<_>>().join(",");
    format!(
        "<mjloggm ver=\"2.3\"><SHUFFLE seed=\"x\" ref=\"\"/><GO type=\"169\" lobby=\"0\"/><UN n0=\"A\" n1=\"B\" \
         n2=\"C\" n3=\"D\" dan=\"0,0,0,0\" rate=\"1500,1500,1500,1500\" sx=\"M,M,M,M\"/><TAIKYOKU oya=\"0\"/>\
         <INIT seed=\"0,0,0,0,0,135\" ten=\"250,250,250,250\" oya=\"0\" hai0=\"{}\" hai1=\"{}\" hai2=\"{}\" \
         hai3=\"{}\"/>",
        hai(0),
        hai(1),
        hai(2),
        hai(3)
    )
}

/// (issue 48, row 3) Inputs made to blow memory: a gzip of 1.2 MB that expands to 400 MiB of valid-looking
/// XML, a 50 MB attribute, a plain file of 1 GiB (sparse), and 60 MiB of one round of draws and discards. Each
/// is quarantined with the limit it broke, a real log beside them is ingested, and the run's peak memory stays
/// bounded: before, the first took 10.7 GB, the second 2.79 GB, the third 1.1 GB.
#[test]
fn inputs_made_to_blow_memory_are_quarantined_within_bounded_memory() {
    use std::io::Write;
    let s = Scratch::new("safety-memory");
    let dir = s.0.join("in");
    sim_logs(&dir, 2, 5);
    let draws = "<T52/><D52/>".repeat(1 << 16);
    // a gzip bomb of XML: 400 MiB of draws and discards behind a valid head
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(dir.join("2024010100gm-00a9-0000-bomb0001.xml.gz")).unwrap(),
        flate2::Compression::best(),
    );
    gz.write_all(hostile_head().as_bytes()).unwrap();
    for _ in 0..(400 << 20) / draws.len() {
        gz.write_all(draws.as_bytes()).unwrap();
    }
    gz.finish().unwrap();
    // one attribute of 50 MB
    let mut f = std::fs::File::create(dir.join("2024010100gm-00a9-0000-attr0001.xml")).unwrap();
    f.write_all(b"<mjloggm ver=\"2.3\"><UN n0=\"").unwrap();
    f.write_all(&vec![b'A'; 50_000_000]).unwrap();
    f.write_all(b"\"/></mjloggm>").unwrap();
    drop(f);
    // a file of 1 GiB, sparse: no disk taken, but 1 GiB to whoever reads it
    let f = std::fs::File::create(dir.join("2024010100gm-00a9-0000-huge0001.xml")).unwrap();
    f.set_len(1 << 30).unwrap();
    drop(f);
    // 60 MiB: under the file limit, one round of millions of events
    let mut f = std::fs::File::create(dir.join("2024010100gm-00a9-0000-long0001.xml")).unwrap();
    f.write_all(hostile_head().as_bytes()).unwrap();
    for _ in 0..(60 << 20) / draws.len() {
        f.write_all(draws.as_bytes()).unwrap();
    }
    f.write_all(b"</mjloggm>").unwrap();
    drop(f);
    let ds = s.0.join("data");
    let mut cmd = bin();
    cmd.args(["ingest", dir.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--jobs", "2", "--json"]);
    let (status, peak, stdout, stderr) = run_measured(cmd);
    assert!(status.success(), "{stderr}");
    let j: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(j["games_ingested"], 2, "the real logs beside them: {j:#}");
    assert_eq!(j["files_quarantined"], 4, "{j:#}");
    let reason = |name: &str| -> String {
        let q = j["quarantined"].as_array().unwrap().iter().find(|q| q["file"].as_str().unwrap().contains(name));
        q.unwrap_or_else(|| panic!("{name} is not quarantined: {j:#}"))["reason"].as_str().unwrap().to_string()
    };
    assert!(reason("bomb0001").contains("gzip expands beyond 64 MiB"), "{}", reason("bomb0001"));
    assert!(reason("attr0001").contains("limit of 64 KiB for one tag"), "{}", reason("attr0001"));
    assert!(reason("huge0001").contains("limit of 64 MiB for one log"), "{}", reason("huge0001"));
    assert!(reason("long0001").contains("more than 20000 events"), "{}", reason("long0001"));
    // two files at the limit in flight at once (the gzip's 64 MiB, the 60 MiB file), the binary and its tables
    eprintln!("peak RSS of the hostile ingest: {:.0} MB", peak as f64 / 1e6);
    assert!(peak < 450_000_000, "peak RSS {peak} bytes");
}

fn mkfifo(path: &Path) {
    let out = Command::new("mkfifo").arg(path).output().expect("mkfifo (coreutils)");
    assert!(out.status.success(), "mkfifo: {}", String::from_utf8_lossy(&out.stderr));
}

/// (issue 48, row 4) A FIFO among the inputs (walked or named) is not read, with a note; before, ingest waited
/// on it for ever.
#[test]
fn a_fifo_among_the_inputs_is_skipped_with_a_note() {
    let s = Scratch::new("safety-fifo");
    let dir = sim_logs(&s.0.join("in"), 3, 6);
    let fifo = dir.join("p.xml");
    mkfifo(&fifo);
    let ds = s.0.join("data");
    for inputs in [vec![dir.clone()], vec![dir.clone(), fifo.clone()]] {
        let mut cmd = bin();
        cmd.arg("ingest").args(&inputs).args(["--out", ds.to_str().unwrap(), "--json"]);
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("ingest hangs on a FIFO");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        let j = json(&out);
        let ignored = j["ignored"].as_array().unwrap();
        assert!(!ignored.is_empty(), "{j:#}");
        assert!(ignored
            .iter()
            .all(|i| i["file"] == fifo.to_str().unwrap() && i["reason"].as_str().unwrap().contains("a FIFO")));
        assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file (a FIFO)"));
    }
    assert_eq!(game_ids(&ds).len(), 3);
}

/// (issue 48, row 7) A folder ingested into itself: the dataset's own files are never inputs; before, the second
/// run read `_haifu/*.jsonl` as logs and failed under `--strict`.
#[test]
fn a_folder_ingested_into_itself_reads_only_its_logs() {
    let s = Scratch::new("safety-self");
    let dir = sim_logs(&s.0.join("x"), 3, 7);
    for run in 0..2 {
        let j = json(&haifu(&["ingest", dir.to_str().unwrap(), "--out", dir.to_str().unwrap(), "--strict", "--json"]));
        assert_eq!(j["files_quarantined"], 0, "run {run}: {j:#}");
        if run == 1 {
            assert_eq!(j["files_skipped"], 3, "{j:#}");
            let ignored = j["ignored"].as_array().unwrap();
            assert!(ignored.iter().any(|i| i["file"].as_str().unwrap().ends_with("manifest.jsonl")), "{j:#}");
            assert!(ignored.iter().all(|i| i["reason"].as_str().unwrap().contains("the output dataset")), "{j:#}");
        }
    }
    assert_eq!(game_ids(&dir).len(), 3);
}

/// (issue 48, row 10) A disk that fills during an ingest (here: a file size limit, `ulimit -f`, which fails
/// writes as a full disk does): the error names the file, no temporary file is left, and the dataset is as
/// before. Before, the error named no path and `.tmp` files stayed behind, filling the disk.
#[test]
fn a_full_disk_names_the_file_and_leaves_no_temporary_file() {
    let s = Scratch::new("safety-full");
    let first = sim_logs(&s.0.join("a"), 2, 8);
    let more = sim_logs(&s.0.join("b"), 60, 9);
    let ds = s.0.join("data");
    json(&haifu(&["ingest", first.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--json"]));
    // 64 blocks of 512 bytes: the decisions of 60 games do not fit
    let script = format!(
        "trap '' XFSZ; ulimit -f 64; exec '{}' ingest '{}' --out '{}'",
        env!("CARGO_BIN_EXE_haifu"),
        more.display(),
        ds.display()
    );
    let out = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains(&ds.display().to_string()) && e.contains("File too large"), "{e}");
    let mut left = Vec::new();
    let mut stack = vec![ds.clone()];
    while let Some(d) = stack.pop() {
        for f in std::fs::read_dir(&d).unwrap().flatten() {
            if f.file_type().unwrap().is_dir() {
                stack.push(f.path());
            } else if f.file_name().to_string_lossy().ends_with(".tmp") {
                left.push(f.path());
            }
        }
    }
    assert!(left.is_empty(), "temporary files left: {left:?}");
    holds_each_once(&ds, 2, "after the failed run");
    assert!(!haifu(&["check", ds.to_str().unwrap()]).stdout.is_empty());
}

/// (issue 48, rows 5 and 6) `mine` killed over an old output (16 times, most of them once it writes), and `style build` over an old database: the
/// folder is either the old one or the new one, whole (before, new sequences were read beside old players and
/// meta with exit 0; a leftover `.S.old` made every later build fail).
#[test]
fn mine_and_style_build_killed_over_an_old_output_leave_one_whole_folder() {
    let s = Scratch::new("safety-mine");
    let logs = sim_logs(&s.0.join("logs"), 600, 10);
    let ds = s.0.join("data");
    json(&haifu(&["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--json"]));
    let tables = s.0.join("T");
    json(&haifu(&["mine", "--dataset", ds.to_str().unwrap(), "--out", tables.to_str().unwrap(), "--json"]));
    // what meta.json says of the sequences is what sequences.parquet holds: the four files of one run
    let whole = |round: usize| {
        let meta = haifu_mining::tables::read_meta(&tables).unwrap().expect("meta.json");
        let mut rows = 0u64;
        haifu_mining::tables::for_each_count(&tables, |_| {
            rows += 1;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("round {round}: {e:#}"));
        assert_eq!(meta["rows"].as_u64(), Some(rows), "round {round}: meta.json of one run, sequences of another");
    };
    // the files of the folder and of its parent (a staging folder beside it), with their sizes and times;
    // `shown`: only the folder's own files, as a reader sees them
    let snapshot = |shown: bool| -> Vec<(String, u64, Option<std::time::SystemTime>)> {
        let mut v = Vec::new();
        for dir in if shown { vec![&tables] } else { vec![&tables, &s.0] } {
            for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                if shown && e.file_name().to_string_lossy().starts_with('.') {
                    continue;
                }
                let m = e.metadata().ok();
                let (len, at) = (m.as_ref().map_or(0, |m| m.len()), m.and_then(|m| m.modified().ok()));
                v.push((e.path().display().to_string(), len, at));
            }
        }
        v.sort();
        v
    };
    whole(0);
    let mut rng = Rng(7);
    for round in 0..16 {
        // two runs that write other tables: every round, or the rounds won
        let rounds = if round % 2 == 0 { "won" } else { "all" };
        let mut child = bin()
            .args(["mine", "--dataset", ds.to_str().unwrap(), "--out", tables.to_str().unwrap(), "--rounds", rounds])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // killed once it starts writing, or once a file a reader sees changes (at once or a little later), or
        // one time in four at any moment
        let shown = round % 4 != 0;
        let before = snapshot(shown);
        let delay = Duration::from_micros(match round % 4 {
            3 => rng.below(200_000),
            1 => 0,
            _ => rng.below(2_000),
        });
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if round % 4 == 3 && started.elapsed() >= delay {
                break;
            }
            if round % 4 != 3 && snapshot(shown) != before {
                let at = Instant::now();
                while at.elapsed() < delay {}
                break;
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        whole(round + 1);
        let out = haifu(&["stats", "top", "--tables", tables.to_str().unwrap()]);
        assert!(out.status.success(), "round {round}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // a leftover of a style build killed while it removed the database it replaced
    let db = s.0.join("S");
    let build =
        ["style", "build", "--dataset", ds.to_str().unwrap(), "--out", db.to_str().unwrap(), "--min-games", "1"];
    let out = haifu(&build);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::create_dir_all(s.0.join(".S.old")).unwrap();
    std::fs::write(s.0.join(".S.old/x"), "left by a kill").unwrap();
    let out = haifu(&build);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!s.0.join(".S.old").exists());
    assert!(db.join("profiles.parquet").is_file());
}

//! The cluster recipes in deploy/, simulated locally: the Kubernetes Indexed Job's pods and
//! the Slurm array's tasks are processes with the engine's environment variables set, all
//! running at once, then the merge step; the merged results equal a single run's.

use crate::arena_bin;
use arena_tests::{root, stderr};
use std::path::Path;
use std::process::{Child, Command};

fn sorted_results(file: &Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    lines.sort_by_key(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["game"].as_u64());
    lines
}

fn single_run(cache: &Path, out: &Path) -> Vec<String> {
    let run = crate::arena(
        cache,
        &[
            "tournament",
            "run",
            root().join("tournaments/small.toml").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    sorted_results(&out.join("results.jsonl"))
}

/// `KEY: VALUE` of the first line of `yaml` that starts (after spaces) with `KEY:`.
fn yaml_value<'a>(yaml: &'a str, key: &str) -> &'a str {
    yaml.lines()
        .find_map(|l| l.trim_start().strip_prefix(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no `{key}` in the manifest"))
        .split('#')
        .next()
        .unwrap()
        .trim()
}

fn wait_all(children: Vec<Child>) {
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
}

fn merge(cache: &Path, results: &Path) -> Vec<String> {
    let out = Command::new(root().join("deploy/merge.sh"))
        .env("RESULTS", results)
        .env("ARENA", arena_bin())
        .env("ARENA_CACHE_DIR", cache)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    sorted_results(&results.join("merged/results.jsonl"))
}

#[test]
fn the_kubernetes_indexed_job_and_merge_equal_a_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let reference = single_run(dir.path(), &dir.path().join("single"));

    let manifest =
        std::fs::read_to_string(root().join("deploy/kubernetes/tournament-job.yaml")).unwrap();
    assert_eq!(yaml_value(&manifest, "completionMode"), "Indexed");
    let completions: u32 = yaml_value(&manifest, "completions").parse().unwrap();
    assert!(
        manifest.contains(&format!("{{ name: SHARDS, value: \"{completions}\" }}")),
        "SHARDS matches completions"
    );
    assert!(manifest.contains("/usr/local/bin/run-shard.sh"));

    // The pods: the same command, JOB_COMPLETION_INDEX = 0..completions, all at once.
    let results = dir.path().join("k8s");
    let pods = (0..completions)
        .map(|index| {
            Command::new(root().join("deploy/run-shard.sh"))
                .env("JOB_COMPLETION_INDEX", index.to_string())
                .env("TOURNAMENT", root().join("tournaments/small.toml"))
                .env("SHARDS", completions.to_string())
                .env("RESULTS", &results)
                .env("JOBS", "1")
                .env("ARENA", arena_bin())
                .env("ARENA_CACHE_DIR", dir.path())
                .output_later()
        })
        .collect();
    wait_all(pods);
    assert_eq!(merge(dir.path(), &results), reference);
}

#[test]
fn the_slurm_array_and_merge_equal_a_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let reference = single_run(dir.path(), &dir.path().join("single"));
    let script = std::fs::read_to_string(root().join("deploy/slurm/tournament.sbatch")).unwrap();
    let script = script.replace("#SBATCH --array=", "array:");
    let array = yaml_value(&script, "array");
    let (first, last) = array.split_once('-').unwrap();
    let (first, last): (u32, u32) = (first.parse().unwrap(), last.parse().unwrap());
    let results = dir.path().join("slurm");
    let tasks = (first..=last)
        .map(|task| {
            Command::new(root().join("deploy/slurm/tournament.sbatch"))
                .env("SLURM_ARRAY_TASK_ID", task.to_string())
                .env("SLURM_ARRAY_TASK_MIN", first.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", (last - first + 1).to_string())
                .env("SLURM_CPUS_PER_TASK", "1")
                .env("ARENA_DEPLOY", root().join("deploy"))
                .env("TOURNAMENT", root().join("tournaments/small.toml"))
                .env("RESULTS", &results)
                .env("ARENA", arena_bin())
                .env("ARENA_CACHE_DIR", dir.path())
                .output_later()
        })
        .collect();
    wait_all(tasks);
    assert_eq!(merge(dir.path(), &results), reference);
}

/// Start a command with its output captured, to wait for later.
trait OutputLater {
    fn output_later(&mut self) -> Child;
}

impl OutputLater for Command {
    fn output_later(&mut self) -> Child {
        self.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    }
}

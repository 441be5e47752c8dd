//! The MPI ranks this process belongs to, when built with the `mpi` feature
//! and started by `mpirun`/`srun` with more than one rank; otherwise none.

use aliasing_sim::shard::Team;

/// The job's ranks (more than one), or `None` for a plain process.
#[cfg(feature = "mpi")]
pub fn world() -> Option<Box<dyn Team>> {
    let t = aliasing_sim::mpi::init()?;
    (t.size() > 1).then(|| Box::new(t) as Box<dyn Team>)
}

/// The job's ranks: none without the `mpi` feature.
#[cfg(not(feature = "mpi"))]
pub fn world() -> Option<Box<dyn Team>> {
    None
}

/// Runs a command on the job's ranks (none for a plain process). Under MPI
/// a rank that fails prints its error, naming itself, and ends the whole
/// job (the others would wait for it forever).
pub fn run_ranked(f: impl FnOnce(Option<&dyn Team>) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let team = world();
    let result = f(team.as_deref());
    if let (Err(e), Some(t)) = (&result, &team) {
        let msg = format!("{e:#}").replace('\n', " ");
        eprintln!("error: rank {} of {}: {msg}", t.rank(), t.size());
        t.abort(2);
    }
    result
}

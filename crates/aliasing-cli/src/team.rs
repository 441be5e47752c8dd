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

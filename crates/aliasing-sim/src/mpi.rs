//! MPI ranks (the `mpi` crate over Open MPI) as a [`Team`]: under
//! `mpirun -n N` or `srun`, every rank runs the same command; [`drive`]
//! deals each batch of work items to the ranks and reduces the integer
//! tallies at rank 0, which alone writes checkpoints and results. The items
//! are fixed by the parameters, never by the number of ranks, so the result
//! is bit-identical to a single process on the same seed, and a checkpoint
//! written under MPI resumes under any number of ranks (or none).
//!
//! Failure: Open MPI has no recovery from a dead rank (the default error
//! handler, `MPI_ERRORS_ARE_FATAL`; `mpirun` ends the whole job when a rank
//! exits abnormally and names it). Rank 0's checkpoints are written
//! atomically, so the last one is intact; `--resume` continues from it.
//!
//! [`drive`]: crate::shard::drive

use crate::shard::Team;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// The world communicator of an MPI job.
pub struct MpiTeam {
    world: SimpleCommunicator,
    _universe: Universe,
}

/// Initializes MPI; `None` when it cannot be (already initialized).
pub fn init() -> Option<MpiTeam> {
    let universe = mpi::initialize()?;
    Some(MpiTeam {
        world: universe.world(),
        _universe: universe,
    })
}

impl Team for MpiTeam {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn broadcast(&self, value: u64) -> u64 {
        let mut v = value;
        self.world.process_at_rank(0).broadcast_into(&mut v);
        v
    }

    fn gather(&self, bytes: Vec<u8>) -> Vec<Vec<u8>> {
        if self.world.rank() == 0 {
            let mut all = vec![bytes];
            for r in 1..self.world.size() {
                let (v, _) = self.world.process_at_rank(r).receive_vec::<u8>();
                all.push(v);
            }
            all
        } else {
            self.world.process_at_rank(0).send(&bytes[..]);
            Vec::new()
        }
    }

    fn abort(&self, code: i32) {
        self.world.abort(code)
    }
}

//! The core's [`Transport`] over MPI: a partitioned solve's all-to-all exchanges
//! (`MPI_Alltoall` of the counts, then `MPI_Alltoallv` of the events) and reductions
//! (`MPI_Allreduce`) on a communicator whose every rank takes part.

use endgame_core::retrograde::{Transport, TransportError};
use mpi::Count;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives};

/// Every rank of `comm` as a rank of a partitioned solve.
pub struct MpiTransport<'c> {
    comm: &'c SimpleCommunicator,
}

impl<'c> MpiTransport<'c> {
    /// The ranks of `comm`.
    #[must_use]
    pub const fn new(comm: &'c SimpleCommunicator) -> Self {
        MpiTransport { comm }
    }

    /// The sum over every rank of `value`.
    #[must_use]
    pub fn sum(&self, value: u64) -> u64 {
        let mut sum = 0u64;
        self.comm.all_reduce_into(&value, &mut sum, SystemOperation::sum());
        sum
    }
}

/// MPI's counts and displacements are `int`s: a round's events must fit (the budget keeps them
/// far below).
fn counts(lens: impl Iterator<Item = usize>) -> Result<(Vec<Count>, Vec<Count>), TransportError> {
    let too_many = || TransportError("more events in a round than MPI counts (2^31)".into());
    let (mut counts, mut displs, mut at) = (Vec::new(), Vec::new(), 0 as Count);
    for len in lens {
        let len = Count::try_from(len).map_err(|_| too_many())?;
        counts.push(len);
        displs.push(at);
        at = at.checked_add(len).ok_or_else(too_many)?;
    }
    Ok((counts, displs))
}

impl Transport for MpiTransport<'_> {
    fn rank(&self) -> usize {
        self.comm.rank() as usize
    }

    fn ranks(&self) -> usize {
        self.comm.size() as usize
    }

    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Result<Vec<u64>, TransportError> {
        let (send_counts, send_displs) = counts(outgoing.iter().map(Vec::len))?;
        let mut receive_counts = vec![0 as Count; self.ranks()];
        self.comm.all_to_all_into(&send_counts[..], &mut receive_counts[..]);
        let (receive_counts, receive_displs) = counts(receive_counts.iter().map(|&c| c as usize))?;
        let send: Vec<u64> = outgoing.concat();
        drop(outgoing);
        let mut received = vec![0u64; receive_counts.iter().map(|&c| c as usize).sum()];
        {
            let send = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
            let mut receive = PartitionMut::new(&mut received[..], &receive_counts[..], &receive_displs[..]);
            self.comm.all_to_all_varcount_into(&send, &mut receive);
        }
        Ok(received)
    }

    fn max(&self, value: u64) -> Result<u64, TransportError> {
        let mut max = 0u64;
        self.comm.all_reduce_into(&value, &mut max, SystemOperation::max());
        Ok(max)
    }
}

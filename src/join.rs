//! Running a few futures at once on a single-threaded executor.
//!
//! Bulk prefetches issue several Chroma requests concurrently (the client's semaphore
//! caps how many are in flight); this is the whole of the async machinery they need.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

/// Polls every future until all are done; outputs come back in input order.
pub async fn join_all<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (f, out) in futures.iter_mut().zip(outputs.iter_mut()) {
            if out.is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => *out = Some(v),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().map(|o| o.expect("every future completed")).collect()
}

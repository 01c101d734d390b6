//! Work kept off a run's path, on threads of its own: fresh network
//! namespaces are made ahead ([`Stock`]) and used cgroups removed after
//! ([`CgroupRemover`]). The work itself is the same; on a host with a core
//! to spare a run waits less (the namespaces made ahead save it about
//! 0.25 ms: BENCHMARKS.md, the program sandbox). Empty cgroups made ahead
//! were measured too and saved nothing, so runs make their own.
//!
//! Dropping either waits for its thread, so a command that ends leaves no
//! group or half-made namespace behind.

use std::{
    io,
    os::fd::OwnedFd,
    sync::{
        Mutex,
        mpsc::{Receiver, Sender, SyncSender},
    },
    thread::JoinHandle,
};

use super::cgroup::RunCgroup;

/// Things made ahead by a thread, a few at a time, each taken by one run.
/// The thread stops when a thing cannot be made (runs then make their own
/// and fail with the reason) or when the stock is dropped.
#[derive(Debug)]
pub struct Stock<T> {
    made: Option<Mutex<Receiver<T>>>,
    thread: Option<JoinHandle<()>>,
}

impl<T: Send + 'static> Stock<T> {
    /// Starts the thread `name`, which keeps `ahead` things made.
    pub fn start(
        name: &str,
        ahead: usize,
        mut make: impl FnMut() -> io::Result<T> + Send + 'static,
    ) -> Stock<T> {
        let (stock, made): (SyncSender<T>, _) = std::sync::mpsc::sync_channel(ahead);
        let thread = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                while let Ok(thing) = make() {
                    if stock.send(thing).is_err() {
                        return;
                    }
                }
            })
            .ok();
        Stock {
            made: Some(Mutex::new(made)),
            thread,
        }
    }

    /// A thing made ahead, or `None` if none is ready.
    pub fn take(&self) -> Option<T> {
        let made = self.made.as_ref()?;
        made.lock()
            .unwrap_or_else(|e| e.into_inner())
            .try_recv()
            .ok()
    }
}

impl<T> Drop for Stock<T> {
    fn drop(&mut self) {
        // Dropping the receiver drops what was made and not taken, and
        // fails the thread's next send.
        self.made = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Network namespaces kept ready: runs in flight on a host are a handful.
pub const NET_NAMESPACES_AHEAD: usize = 4;

/// Moves the calling thread into a new network namespace and returns a
/// descriptor of it (call it from a thread of its own).
pub fn make_net_namespace() -> io::Result<OwnedFd> {
    // SAFETY: unshare changes only the calling thread.
    if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
        return Err(io::Error::last_os_error());
    }
    std::fs::File::open("/proc/thread-self/ns/net").map(OwnedFd::from)
}

/// A network namespace no run has used: from `stock`, or made now on a
/// thread of its own when the stock is empty.
pub fn fresh_net_namespace(stock: &Stock<OwnedFd>) -> io::Result<OwnedFd> {
    match stock.take() {
        Some(namespace) => Ok(namespace),
        None => std::thread::spawn(make_net_namespace)
            .join()
            .map_err(|_| io::Error::other("the thread making it panicked"))?,
    }
}

/// A thread that removes used cgroups.
#[derive(Debug)]
pub struct CgroupRemover {
    queue: Option<Sender<RunCgroup>>,
    thread: Option<JoinHandle<()>>,
}

impl CgroupRemover {
    pub fn start() -> CgroupRemover {
        let (queue, groups) = std::sync::mpsc::channel::<RunCgroup>();
        let thread = std::thread::Builder::new()
            .name("cgroup-remover".into())
            .spawn(move || groups.into_iter().for_each(drop))
            .ok();
        CgroupRemover {
            queue: Some(queue),
            thread,
        }
    }

    /// Removes `group` soon (at once, here, if the thread is gone).
    pub fn remove(&self, group: RunCgroup) {
        if let Some(queue) = &self.queue
            && let Err(unsent) = queue.send(group)
        {
            drop(unsent.0);
        }
    }
}

impl Drop for CgroupRemover {
    fn drop(&mut self) {
        self.queue = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stock_hands_out_what_its_thread_made_and_drops_the_rest_when_dropped() {
        use std::sync::{
            Arc,
            atomic::{AtomicUsize, Ordering},
        };
        struct Counted(usize, Arc<AtomicUsize>);
        impl Drop for Counted {
            fn drop(&mut self) {
                self.1.fetch_add(1, Ordering::SeqCst);
            }
        }
        let made = Arc::new(AtomicUsize::new(0));
        let dropped = Arc::new(AtomicUsize::new(0));
        let (made_in, dropped_in) = (made.clone(), dropped.clone());
        let stock = Stock::start("test-stock", 2, move || {
            let number = made_in.fetch_add(1, Ordering::SeqCst) + 1;
            Ok(Counted(number, dropped_in.clone()))
        });
        let first = loop {
            if let Some(thing) = stock.take() {
                break thing;
            }
            std::thread::yield_now();
        };
        assert_eq!(first.0, 1);
        drop(first);
        drop(stock);
        // The thread is gone and everything it made was dropped: the one
        // taken, those in the stock, the one it was sending.
        let made = made.load(Ordering::SeqCst);
        assert!(made >= 2, "{made}");
        assert_eq!(dropped.load(Ordering::SeqCst), made);
    }

    #[test]
    fn a_stock_whose_maker_fails_hands_out_nothing() {
        let stock: Stock<u8> = Stock::start("test-stock", 2, || Err(io::Error::other("no")));
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(stock.take().is_none());
    }
}

//! Safe code cannot race the library on one storage (Note [One writer per
//! storage]): writers through clones and views on several threads take
//! turns, and a read never sees half of a write.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use stride::{DType, Device, Tensor};

const N: i64 = 1 << 16;

/// `true` when every element of `v` is the first one.
fn uniform(v: &[f32]) -> bool {
    v.iter().all(|&x| x == v[0])
}

#[test]
fn fills_from_two_threads_take_turns() {
    let t = Tensor::empty(&[N], DType::Float32, Device::CPU).unwrap();
    t.fill(0.0).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (1..=2)
        .map(|k| {
            // One writer through a clone (the same handle), one through a view of the whole storage.
            let mine = if k == 1 { t.clone() } else { t.flip(0).unwrap() };
            let done = done.clone();
            std::thread::spawn(move || {
                let mut rounds = 0;
                while !done.load(Ordering::Relaxed) || rounds < 20 {
                    mine.fill(k as f64).unwrap();
                    rounds += 1;
                }
            })
        })
        .collect();
    let mut mixed = 0;
    for _ in 0..40 {
        if !uniform(&t.to_vec::<f32>().unwrap()) {
            mixed += 1;
        }
    }
    done.store(true, Ordering::Relaxed);
    for w in writers {
        w.join().unwrap();
    }
    assert_eq!(mixed, 0, "{} of 40 snapshots mixed two fills", mixed);
    assert!(uniform(&t.to_vec::<f32>().unwrap()));
}

#[test]
fn set_and_get_on_one_shared_tensor_from_many_threads() {
    // Each thread adds 1 to its own element many times, through set and get on
    // a shared tensor; the values are exact only if no write is lost or torn.
    let t = Arc::new(Tensor::from_vec(vec![0i64; 8], &[8]).unwrap());
    let threads: Vec<_> = (0..4i64)
        .map(|i| {
            let t = t.clone();
            std::thread::spawn(move || {
                for _ in 0..500 {
                    let v: i64 = t.get(&[i]).unwrap();
                    t.set(&[i], v + 1).unwrap();
                }
            })
        })
        .collect();
    for th in threads {
        th.join().unwrap();
    }
    assert_eq!(t.to_vec::<i64>().unwrap(), vec![500, 500, 500, 500, 0, 0, 0, 0]);
}

#[test]
fn copies_between_two_storages_in_both_directions_do_not_wait_forever() {
    // Thread 1 copies a into b while thread 2 copies b into a: each takes the
    // two storages' locks in the same order, so neither waits for the other forever.
    let a = Tensor::from_vec(vec![1.0f32; N as usize], &[N]).unwrap();
    let b = Tensor::from_vec(vec![2.0f32; N as usize], &[N]).unwrap();
    let (a2, b2) = (a.clone(), b.clone());
    let one = std::thread::spawn(move || (0..200).for_each(|_| b2.copy_from(&a2, false).unwrap()));
    (0..200).for_each(|_| a.copy_from(&b, false).unwrap());
    one.join().unwrap();
    assert!(uniform(&a.to_vec::<f32>().unwrap()) && uniform(&b.to_vec::<f32>().unwrap()));
}

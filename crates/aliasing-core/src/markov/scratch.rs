#[test]
fn scratch_timing() {
    let g = crate::catalogue::default_primitive(16).unwrap();
    let n = 1usize << 16;
    let v: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let mut w = vec![0.0; n];
    let mut src = vec![1.0; n];
    for k in ["generic", "avx2", "avx512", "copy"] {
        unsafe { std::env::set_var("ALIAS_KERNEL", k) };
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = std::time::Instant::now();
            for _ in 0..1000 {
                if k == "copy" { w.copy_from_slice(&src); src[0] += 1.0; } else {
                super::butterfly::step(&g, 1e-5, &v, &mut w, false); }
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        eprintln!("{k}: {:.2} us/step", best * 1e3);
    }
}

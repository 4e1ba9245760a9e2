//! Myers' O(ND) search for a shortest edit script, as gnulib's diffseq.h does it for GNU
//! diff: a search from both ends meeting in the middle, splitting the problem there, and
//! past a cost of `too_expensive` settling for the furthest-reaching diagonal.

/// Myers' search over the lines left after discarding.
pub(super) struct Myers<'a> {
    pub xv: &'a [usize],
    pub yv: &'a [usize],
    pub fd: Vec<isize>,
    pub bd: Vec<isize>,
    /// Where diagonal 0 is in `fd` and `bd`.
    pub off: isize,
    pub too_expensive: isize,
    pub changed: &'a mut [Vec<u8>; 2],
    pub real: &'a [Vec<usize>; 2],
}

/// Where a search splits its problem, and whether each half must be solved minimally.
struct Part {
    xmid: isize,
    ymid: isize,
    lo_minimal: bool,
    hi_minimal: bool,
}

impl Myers<'_> {
    fn eq(&self, x: isize, y: isize) -> bool {
        self.xv[x as usize] == self.yv[y as usize]
    }

    /// Marks the lines of the two ranges that a shortest edit script (or GNU's
    /// approximation of one, past `too_expensive`) deletes or inserts.
    pub(super) fn compareseq(
        &mut self,
        mut xoff: isize,
        mut xlim: isize,
        mut yoff: isize,
        mut ylim: isize,
        minimal: bool,
    ) {
        while xoff < xlim && yoff < ylim && self.eq(xoff, yoff) {
            xoff += 1;
            yoff += 1;
        }
        while xoff < xlim && yoff < ylim && self.eq(xlim - 1, ylim - 1) {
            xlim -= 1;
            ylim -= 1;
        }
        if xoff == xlim {
            for y in yoff..ylim {
                self.changed[1][self.real[1][y as usize] + 1] = 1;
            }
        } else if yoff == ylim {
            for x in xoff..xlim {
                self.changed[0][self.real[0][x as usize] + 1] = 1;
            }
        } else {
            let part = self.diag(xoff, xlim, yoff, ylim, minimal);
            self.compareseq(xoff, part.xmid, yoff, part.ymid, part.lo_minimal);
            self.compareseq(part.xmid, xlim, part.ymid, ylim, part.hi_minimal);
        }
    }

    /// The midpoint of a shortest edit script between the two ranges (whose first and
    /// last elements differ), searching from both ends at once.
    fn diag(&mut self, xoff: isize, xlim: isize, yoff: isize, ylim: isize, minimal: bool) -> Part {
        let o = self.off;
        let (dmin, dmax) = (xoff - ylim, xlim - yoff);
        let (fmid, bmid) = (xoff - yoff, xlim - ylim);
        let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
        let odd = (fmid - bmid) & 1 != 0;
        self.fd[(fmid + o) as usize] = xoff;
        self.bd[(bmid + o) as usize] = xlim;
        let mut c = 1;
        loop {
            if fmin > dmin {
                fmin -= 1;
                self.fd[(fmin - 1 + o) as usize] = -1;
            } else {
                fmin += 1;
            }
            if fmax < dmax {
                fmax += 1;
                self.fd[(fmax + 1 + o) as usize] = -1;
            } else {
                fmax -= 1;
            }
            let mut d = fmax;
            while d >= fmin {
                let (tlo, thi) = (self.fd[(d - 1 + o) as usize], self.fd[(d + 1 + o) as usize]);
                let x0 = if tlo < thi { thi } else { tlo + 1 };
                let (mut x, mut y) = (x0, x0 - d);
                while x < xlim && y < ylim && self.eq(x, y) {
                    x += 1;
                    y += 1;
                }
                self.fd[(d + o) as usize] = x;
                if odd && bmin <= d && d <= bmax && self.bd[(d + o) as usize] <= x {
                    return Part { xmid: x, ymid: y, lo_minimal: true, hi_minimal: true };
                }
                d -= 2;
            }
            if bmin > dmin {
                bmin -= 1;
                self.bd[(bmin - 1 + o) as usize] = isize::MAX;
            } else {
                bmin += 1;
            }
            if bmax < dmax {
                bmax += 1;
                self.bd[(bmax + 1 + o) as usize] = isize::MAX;
            } else {
                bmax -= 1;
            }
            let mut d = bmax;
            while d >= bmin {
                let (tlo, thi) = (self.bd[(d - 1 + o) as usize], self.bd[(d + 1 + o) as usize]);
                let x0 = if tlo < thi { tlo } else { thi - 1 };
                let (mut x, mut y) = (x0, x0 - d);
                while xoff < x && yoff < y && self.eq(x - 1, y - 1) {
                    x -= 1;
                    y -= 1;
                }
                self.bd[(d + o) as usize] = x;
                if !odd && fmin <= d && d <= fmax && x <= self.fd[(d + o) as usize] {
                    return Part { xmid: x, ymid: y, lo_minimal: true, hi_minimal: true };
                }
                d -= 2;
            }
            if !minimal && c >= self.too_expensive {
                return self.give_up(xoff, xlim, yoff, ylim, [fmin, fmax, bmin, bmax]);
            }
            c += 1;
        }
    }

    /// Past the cost GNU is willing to pay: the furthest point either search reached.
    fn give_up(&self, xoff: isize, xlim: isize, yoff: isize, ylim: isize, bounds: [isize; 4]) -> Part {
        let [fmin, fmax, bmin, bmax] = bounds;
        let o = self.off;
        let (mut fxybest, mut fxbest) = (-1, 0);
        let mut d = fmax;
        while d >= fmin {
            let mut x = self.fd[(d + o) as usize].min(xlim);
            let mut y = x - d;
            if ylim < y {
                x = ylim + d;
                y = ylim;
            }
            if fxybest < x + y {
                fxybest = x + y;
                fxbest = x;
            }
            d -= 2;
        }
        let (mut bxybest, mut bxbest) = (isize::MAX, 0);
        let mut d = bmax;
        while d >= bmin {
            let mut x = self.bd[(d + o) as usize].max(xoff);
            let mut y = x - d;
            if y < yoff {
                x = yoff + d;
                y = yoff;
            }
            if x + y < bxybest {
                bxybest = x + y;
                bxbest = x;
            }
            d -= 2;
        }
        if (xlim + ylim) - bxybest < fxybest - (xoff + yoff) {
            Part { xmid: fxbest, ymid: fxybest - fxbest, lo_minimal: true, hi_minimal: false }
        } else {
            Part { xmid: bxbest, ymid: bxybest - bxbest, lo_minimal: false, hi_minimal: true }
        }
    }
}

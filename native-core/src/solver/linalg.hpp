// Small dense linear algebra for the equilibrium solver (systems of size <= ~100, row-major).
// No external BLAS/LAPACK: the matrices are tiny and allocation-free helpers keep the inner loop fast.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace pd::solver {

// LU factorisation with partial pivoting of the n x n row-major matrix A (in place).
// Returns false when a pivot is (numerically) zero.
inline bool lu_factor(double* A, int n, int* piv) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    double best = std::fabs(A[k * n + k]);
    for (int i = k + 1; i < n; ++i) {
      double v = std::fabs(A[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    if (!(best > 0) || !std::isfinite(best)) return false;
    if (p != k)
      for (int j = 0; j < n; ++j) std::swap(A[k * n + j], A[p * n + j]);
    double inv = 1.0 / A[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      double f = A[i * n + k] * inv;
      A[i * n + k] = f;
      if (f != 0)
        for (int j = k + 1; j < n; ++j) A[i * n + j] -= f * A[k * n + j];
    }
  }
  return true;
}

// Solves with the factors of lu_factor; b is overwritten with x.
inline void lu_solve(const double* LU, int n, const int* piv, double* b) {
  // lu_factor swaps whole rows (L part included), so all interchanges are applied first.
  for (int k = 0; k < n; ++k)
    if (piv[k] != k) std::swap(b[k], b[piv[k]]);
  for (int k = 0; k < n; ++k)
    for (int i = k + 1; i < n; ++i) b[i] -= LU[i * n + k] * b[k];
  for (int i = n - 1; i >= 0; --i) {
    double s = b[i];
    for (int j = i + 1; j < n; ++j) s -= LU[i * n + j] * b[j];
    b[i] = s / LU[i * n + i];
  }
}

// Cholesky of a symmetric n x n matrix (in place, lower triangle). false if not positive definite.
inline bool cholesky(double* A, int n) {
  for (int j = 0; j < n; ++j) {
    double d = A[j * n + j];
    for (int k = 0; k < j; ++k) d -= A[j * n + k] * A[j * n + k];
    if (!(d > 0) || !std::isfinite(d)) return false;
    d = std::sqrt(d);
    A[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double s = A[i * n + j];
      for (int k = 0; k < j; ++k) s -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = s / d;
    }
  }
  return true;
}

// Least-squares / minimum-norm solution of the rows x cols system A x = b through a one-sided Jacobi
// SVD, with columns scaled to unit norm first (the solver mixes chemical potentials ~1e5 J/mol with
// phase amounts ~1) and singular values below rcond * s_max dropped (pycalphad: dgelsd, §8.3).
// A and b are copied into the workspace; x has `cols` entries. Returns the numerical rank.
struct LstsqWork {
  std::vector<double> U, V, s, scale, tmp;
};
inline int lstsq(const double* A, int rows, int cols, const double* b, double* x, LstsqWork& w, double rcond = 1e-14) {
  int m = rows, n = cols;
  // Work on B = A * diag(scale), an m x n matrix stored column-major in U (U[j*m + i]).
  w.U.assign(static_cast<size_t>(m) * n, 0.0);
  w.V.assign(static_cast<size_t>(n) * n, 0.0);
  w.s.assign(n, 0.0);
  w.scale.assign(n, 1.0);
  for (int j = 0; j < n; ++j) {
    double nn = 0;
    for (int i = 0; i < m; ++i) nn += A[i * n + j] * A[i * n + j];
    nn = std::sqrt(nn);
    w.scale[j] = (nn > 0 && std::isfinite(nn)) ? 1.0 / nn : 1.0;
    for (int i = 0; i < m; ++i) w.U[j * m + i] = A[i * n + j] * w.scale[j];
    w.V[j * n + j] = 1.0;
  }
  for (int sweep = 0; sweep < 60; ++sweep) {
    double off = 0;
    for (int p = 0; p < n - 1; ++p)
      for (int q = p + 1; q < n; ++q) {
        double a = 0, bb = 0, c = 0;
        double* up = &w.U[p * m];
        double* uq = &w.U[q * m];
        for (int i = 0; i < m; ++i) {
          a += up[i] * up[i];
          bb += uq[i] * uq[i];
          c += up[i] * uq[i];
        }
        if (c == 0 || std::fabs(c) <= 1e-15 * std::sqrt(a * bb)) continue;
        off = std::fmax(off, std::fabs(c) / std::sqrt(a * bb));
        double zeta = (bb - a) / (2 * c);
        double t = (zeta >= 0 ? 1.0 : -1.0) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
        double cs = 1 / std::sqrt(1 + t * t), sn = cs * t;
        for (int i = 0; i < m; ++i) {
          double u1 = up[i], u2 = uq[i];
          up[i] = cs * u1 - sn * u2;
          uq[i] = sn * u1 + cs * u2;
        }
        double* vp = &w.V[p * n];
        double* vq = &w.V[q * n];
        for (int i = 0; i < n; ++i) {
          double v1 = vp[i], v2 = vq[i];
          vp[i] = cs * v1 - sn * v2;
          vq[i] = sn * v1 + cs * v2;
        }
      }
    if (off < 1e-15) break;
  }
  double smax = 0;
  for (int j = 0; j < n; ++j) {
    double nn = 0;
    for (int i = 0; i < m; ++i) nn += w.U[j * m + i] * w.U[j * m + i];
    w.s[j] = std::sqrt(nn);
    if (w.s[j] > smax) smax = w.s[j];
  }
  w.tmp.assign(n, 0.0);
  int rank = 0;
  for (int j = 0; j < n; ++j) {
    if (!(w.s[j] > rcond * smax) || !std::isfinite(w.s[j])) continue;
    ++rank;
    double d = 0;
    for (int i = 0; i < m; ++i) d += w.U[j * m + i] * b[i];
    d /= (w.s[j] * w.s[j]);  // U column is u_j * s_j
    for (int i = 0; i < n; ++i) w.tmp[i] += w.V[j * n + i] * d;
  }
  for (int j = 0; j < n; ++j) x[j] = w.tmp[j] * w.scale[j];
  return rank;
}

}  // namespace pd::solver

"""Analysis of designs by playing them: random playouts, the solver, findings, parallel backends."""

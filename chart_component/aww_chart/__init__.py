"""The files of the app's chart element: ``assets/chart.js`` and ``assets/chart.css``, which
Streamlit serves from this package's asset directory (its ``pyproject.toml``), and
``assets/plotly.min.js``, the installed ``plotly`` package's own, linked there by ``ui.chart``."""

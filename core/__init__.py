"""Pure NumPy: every number the app shows. Imports neither streamlit nor plotly."""

"""Streamlit and Plotly glue shared by the pages: URL-bound controls, figures, formatting."""

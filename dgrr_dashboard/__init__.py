"""Streamlit-side helpers of the dgrr dashboard (`streamlit run app.py`).

The library does the work; these modules keep the working case, plan and replay result
in `st.session_state` (keys starting `dgrr_`) and draw shared pieces of the pages.
"""

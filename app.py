"""dgrr dashboard entry page (placeholder until the dashboard lands)."""

import streamlit as st

st.set_page_config(page_title="dgrr", layout="wide")
st.title("dgrr — dependency-guided rollback repair")
st.write("Use the pages on the left to load a case, mark faults, review the plan and replay.")

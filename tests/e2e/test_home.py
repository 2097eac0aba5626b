def test_home_page_renders_in_danish_and_switches_to_english(page, live_server):
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "da"
    page.click("a.lang-link[lang=en]")
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == "en"

"""Shot records: every decision of a frame as data (:mod:`.store`), their exact JSON forms
(:mod:`.codec`), and data sets for imitation learning exported from them (:mod:`.dataset`)."""

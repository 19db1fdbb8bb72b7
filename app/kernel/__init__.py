"""The bottom layer: settings, the error family, the identity type, i18n, time and process
helpers. It imports nothing else of ``app``, so every other layer may use it."""

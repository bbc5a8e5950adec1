"""What the window and `ask` call below the UI: putting an agent together (`assembly`), the
account lifecycle (`accounts`) and the providers it offers (`providers`), opening a file the
chat cited (`opening`), the model choice (`model_choice`) and due-task reminders
(`task_reminders`). The UI reaches connectors through these, never directly.
"""

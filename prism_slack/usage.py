"""What a model call cost in tokens: a leaf module (``errors`` and ``ports`` both use it)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class TokenUsage(BaseModel):
    """Tokens one model call used, as the service reported them (Gemini's ``usage_metadata``).

    ``prompt`` includes ``cached`` (the part of the prompt served from the implicit prefix
    cache, billed at the cached rate); ``thinking`` is billed as output.
    """

    model_config = ConfigDict(frozen=True)

    prompt: int = 0
    cached: int = 0
    output: int = 0
    thinking: int = 0
    total: int = 0

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            prompt=self.prompt + other.prompt,
            cached=self.cached + other.cached,
            output=self.output + other.output,
            thinking=self.thinking + other.thinking,
            total=self.total + other.total,
        )

    def log_fields(self) -> str:
        return (
            f"prompt_tokens={self.prompt} cached_tokens={self.cached} "
            f"output_tokens={self.output} thinking_tokens={self.thinking}"
        )

from enum import StrEnum

class WorkloadPreset(StrEnum):
    BERT_LARGE = "bert-large"
    GPT_3_175B = "gpt-3-175b"
    INCEPTION_V3 = "inception-v3"
    LLAMA_3_405B = "llama-3-405b"
    LLAMA_3_70B = "llama-3-70b"
    LLAMA_3_8B = "llama-3-8b"
    MIXTRAL_8X7B = "mixtral-8x7b"
    RESNET_101 = "resnet-101"
    RESNET_152 = "resnet-152"
    RESNET_50 = "resnet-50"
    VGG_16 = "vgg-16"

    def __str__(self) -> str:
        return str(self.value)

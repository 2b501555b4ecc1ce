from enum import StrEnum

class FixedLayoutFramework(StrEnum):
    DDP = "ddp"
    DEEPSPEED = "deepspeed"
    FSDP = "fsdp"
    HOROVOD = "horovod"
    MEGATRON = "megatron"
    MEGATRON_BRIDGE = "megatron-bridge"
    MEGATRON_DEEPSPEED = "megatron-deepspeed"
    MEGATRON_DEEPSPEED_2021 = "megatron-deepspeed-2021"
    MXNET = "mxnet"
    NEMO = "nemo"

    def __str__(self) -> str:
        return str(self.value)

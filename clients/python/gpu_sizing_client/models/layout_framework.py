from enum import StrEnum

class LayoutFramework(StrEnum):
    DDP = "ddp"
    DEEPSPEED = "deepspeed"
    FSDP = "fsdp"
    HOROVOD = "horovod"
    MEGATRON = "megatron"
    MEGATRON_DEEPSPEED = "megatron-deepspeed"
    MXNET = "mxnet"

    def __str__(self) -> str:
        return str(self.value)

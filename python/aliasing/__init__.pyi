"""Type stubs of the ``aliasing`` package (see ``aliasing/__init__.py`` for the documentation)."""

import os
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._errors import AliasError as AliasError
from ._errors import Error as Error
from ._errors import FileError as FileError
from ._errors import InputError as InputError

__version__: str

_Path = Union[str, os.PathLike[str]]
_Num = Union[int, float]
_Nums = Union[_Num, Sequence[_Num], str]
_Check = Union[str, Crc]
_Progress = Union[None, bool, Callable[[str, int, int], Any]]
_Shard = Union[str, Sequence[int]]

class Crc:
    spec: str
    name: str
    width: int
    full: str
    normal: str
    koopman: str
    reversed: str
    init: int
    refin: bool
    refout: bool
    xorout: int
    check: Optional[int]
    def __init__(self, spec: Union[str, Crc]) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Result:
    @property
    def kind(self) -> str: ...
    @property
    def schema(self) -> Optional[int]: ...
    @property
    def method(self) -> Optional[str]: ...
    @property
    def check(self) -> Optional[Dict[str, Any]]: ...
    @property
    def points(self) -> List[Dict[str, Any]]: ...
    def __getitem__(self, key: str) -> Any: ...
    def __contains__(self, key: object) -> bool: ...
    def keys(self) -> Iterable[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def column(self, name: str) -> npt.NDArray[Union[np.float64, np.int64]]: ...
    def to_pandas(self) -> Any: ...
    def _repr_html_(self) -> str: ...
    def plot(self, path: _Path, *, y: str = "alias", x: str = "auto", size: Optional[Sequence[int]] = None) -> None: ...

class TransferResult(Result):
    @property
    def size_bytes(self) -> int: ...
    @property
    def stack(self) -> str: ...
    @property
    def payload_file(self) -> Optional[str]: ...
    @property
    def model(self) -> Any: ...
    @property
    def digest(self) -> Optional[str]: ...

def run(*argv: str, progress: _Progress = None) -> Result: ...
def curve(
    crc: Optional[_Check] = None,
    *,
    check: Optional[_Check] = None,
    bits: Optional[_Nums] = None,
    bytes: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    burst: Optional[Sequence[float]] = None,
    method: Optional[str] = None,
    payload: Optional[_Path] = None,
    payload_hex: Optional[str] = None,
    frame: Optional[_Path] = None,
    frame_hex: Optional[str] = None,
    memory: Optional[str] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result: ...
def hd(
    crc: _Check,
    *,
    max_hd: Optional[int] = None,
    max_bits: Optional[int] = None,
    budget: Optional[_Num] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result: ...
def weights(
    crc: _Check,
    *,
    bits: Optional[int] = None,
    max_weight: Optional[int] = None,
    method: Optional[str] = None,
    dual: bool = False,
    shard: Optional[_Shard] = None,
    out: Optional[_Path] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result: ...
def compare(
    *,
    bytes: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    checks: Optional[Union[_Check, Sequence[_Check]]] = None,
    payload: Optional[_Path] = None,
    payload_hex: Optional[str] = None,
    frame: Optional[_Path] = None,
    frame_hex: Optional[str] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result: ...
def stack(
    stack: Optional[str] = None,
    *,
    bytes: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    max_weight: Optional[int] = None,
    samples: Optional[_Num] = None,
    seed: Optional[int] = None,
    shard: Optional[_Shard] = None,
    out: Optional[_Path] = None,
    checkpoint: Optional[_Path] = None,
    merge: Optional[Sequence[_Path]] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result: ...
def transfer(
    *,
    size: Optional[Union[int, float, str]] = None,
    payload: Optional[_Path] = None,
    mtu: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    stack: Optional[str] = None,
    hops: Optional[Union[int, Sequence[int], str]] = None,
    burst: Optional[Sequence[float]] = None,
    corruption: Optional[Union[str, Sequence[str]]] = None,
    digest: Optional[_Check] = None,
    tallies: Optional[_Path] = None,
    max_weight: Optional[int] = None,
    samples: Optional[_Num] = None,
    seed: Optional[int] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> TransferResult: ...
def search(
    *,
    width: Optional[int] = None,
    bits: Optional[_Nums] = None,
    bytes: Optional[_Nums] = None,
    ber: Optional[_Nums] = None,
    min_hd: Optional[int] = None,
    top: Optional[int] = None,
    objective: Optional[str] = None,
    candidates: Optional[str] = None,
    sample: Optional[int] = None,
    seed: Optional[int] = None,
    shard: Optional[_Shard] = None,
    out: Optional[_Path] = None,
    merge: Optional[Sequence[_Path]] = None,
    rank: Optional[str] = None,
    plot: Optional[_Path] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result: ...
def simulate(
    *,
    frames: Optional[_Num] = None,
    bytes: Optional[_Nums] = None,
    stack: Optional[str] = None,
    ber: Optional[_Nums] = None,
    burst: Optional[Sequence[float]] = None,
    errors: Optional[_Num] = None,
    payload: Optional[str] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    engine: Optional[str] = None,
    shard: Optional[_Shard] = None,
    out: Optional[_Path] = None,
    checkpoint: Optional[_Path] = None,
    resume: Optional[_Path] = None,
    checkpoint_every: Optional[str] = None,
    plot: Optional[_Path] = None,
    no_exact: bool = False,
    rare: bool = False,
    proposal: Optional[Sequence[float]] = None,
    samples: Optional[_Num] = None,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result: ...
def merge(
    files: Union[_Path, Sequence[_Path]],
    *,
    out: Optional[_Path] = None,
    plot: Optional[_Path] = None,
    no_exact: bool = False,
    allow_long: bool = False,
    progress: _Progress = None,
    **options: Any,
) -> Result: ...

CATALOGUE: Dict[str, Crc]

# the RevEng catalogue (generated from aliasing._native.catalogue())
CRC_3_GSM: Crc
CRC_3_ROHC: Crc
CRC_4_G_704: Crc
CRC_4_INTERLAKEN: Crc
CRC_5_EPC_C1G2: Crc
CRC_5_G_704: Crc
CRC_5_USB: Crc
CRC_6_CDMA2000_A: Crc
CRC_6_CDMA2000_B: Crc
CRC_6_DARC: Crc
CRC_6_G_704: Crc
CRC_6_GSM: Crc
CRC_7_MMC: Crc
CRC_7_ROHC: Crc
CRC_7_UMTS: Crc
CRC_8_AUTOSAR: Crc
CRC_8_BLUETOOTH: Crc
CRC_8_CDMA2000: Crc
CRC_8_DARC: Crc
CRC_8_DVB_S2: Crc
CRC_8_GSM_A: Crc
CRC_8_GSM_B: Crc
CRC_8_HITAG: Crc
CRC_8_I_432_1: Crc
CRC_8_I_CODE: Crc
CRC_8_LTE: Crc
CRC_8_MAXIM_DOW: Crc
CRC_8_MIFARE_MAD: Crc
CRC_8_NRSC_5: Crc
CRC_8_OPENSAFETY: Crc
CRC_8_ROHC: Crc
CRC_8_SAE_J1850: Crc
CRC_8_SMBUS: Crc
CRC_8_TECH_3250: Crc
CRC_8_WCDMA: Crc
CRC_10_ATM: Crc
CRC_10_CDMA2000: Crc
CRC_10_GSM: Crc
CRC_11_FLEXRAY: Crc
CRC_11_UMTS: Crc
CRC_12_CDMA2000: Crc
CRC_12_DECT: Crc
CRC_12_GSM: Crc
CRC_12_UMTS: Crc
CRC_13_BBC: Crc
CRC_14_DARC: Crc
CRC_14_GSM: Crc
CRC_15_CAN: Crc
CRC_15_MPT1327: Crc
CRC_16_ARC: Crc
CRC_16_CDMA2000: Crc
CRC_16_CMS: Crc
CRC_16_DDS_110: Crc
CRC_16_DECT_R: Crc
CRC_16_DECT_X: Crc
CRC_16_DNP: Crc
CRC_16_EN_13757: Crc
CRC_16_GENIBUS: Crc
CRC_16_GSM: Crc
CRC_16_IBM_3740: Crc
CRC_16_IBM_SDLC: Crc
CRC_16_ISO_IEC_14443_3_A: Crc
CRC_16_KERMIT: Crc
CRC_16_LJ1200: Crc
CRC_16_M17: Crc
CRC_16_MAXIM_DOW: Crc
CRC_16_MCRF4XX: Crc
CRC_16_MODBUS: Crc
CRC_16_NRSC_5: Crc
CRC_16_OPENSAFETY_A: Crc
CRC_16_OPENSAFETY_B: Crc
CRC_16_PROFIBUS: Crc
CRC_16_RIELLO: Crc
CRC_16_SPI_FUJITSU: Crc
CRC_16_T10_DIF: Crc
CRC_16_TELEDISK: Crc
CRC_16_TMS37157: Crc
CRC_16_UMTS: Crc
CRC_16_USB: Crc
CRC_16_XMODEM: Crc
CRC_17_CAN_FD: Crc
CRC_21_CAN_FD: Crc
CRC_24_BLE: Crc
CRC_24_FLEXRAY_A: Crc
CRC_24_FLEXRAY_B: Crc
CRC_24_INTERLAKEN: Crc
CRC_24_LTE_A: Crc
CRC_24_LTE_B: Crc
CRC_24_OPENPGP: Crc
CRC_24_OS_9: Crc
CRC_30_CDMA: Crc
CRC_31_PHILIPS: Crc
CRC_32_AIXM: Crc
CRC_32_AUTOSAR: Crc
CRC_32_BASE91_D: Crc
CRC_32_BZIP2: Crc
CRC_32_CD_ROM_EDC: Crc
CRC_32_CKSUM: Crc
CRC_32_ISCSI: Crc
CRC_32_ISO_HDLC: Crc
CRC_32_JAMCRC: Crc
CRC_32_MEF: Crc
CRC_32_MPEG_2: Crc
CRC_32_XFER: Crc
CRC_40_GSM: Crc
CRC_64_ECMA_182: Crc
CRC_64_GO_ISO: Crc
CRC_64_MS: Crc
CRC_64_NVME: Crc
CRC_64_REDIS: Crc
CRC_64_WE: Crc
CRC_64_XZ: Crc
